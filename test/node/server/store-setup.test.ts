import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schemaVersionError, setUpOnce } from '../../../src/server/store-setup.js';

test('the set-up runs once for callers at the same time and after it; done says it succeeded', async () => {
  let runs = 0;
  let finish!: () => void;
  const setUp = setUpOnce(() => {
    runs++;
    return new Promise<void>((resolve) => (finish = resolve));
  });
  assert.equal(setUp.done, false);
  const first = setUp.ready();
  const second = setUp.ready();
  assert.equal(first, second, 'callers at the same time share the one run');
  assert.equal(setUp.done, false, 'not done while it runs');
  finish();
  await Promise.all([first, second]);
  assert.equal(setUp.done, true);
  await setUp.ready();
  assert.equal(runs, 1);
});

test('a failed set-up (a database down at start-up) rejects its callers and runs again on the next call', async () => {
  let runs = 0;
  const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
  const setUp = setUpOnce(async () => {
    runs++;
    if (runs === 1) throw down;
  });
  await Promise.all([assert.rejects(setUp.ready(), (error) => error === down), assert.rejects(setUp.ready(), (error) => error === down)]);
  assert.equal(setUp.done, false);
  assert.equal(runs, 1, 'callers of the failed run share its failure');
  await setUp.ready();
  assert.equal(setUp.done, true);
  assert.equal(runs, 2);
});

test("the schema version check: none, an older one (how to migrate), a newer one, and this code's", () => {
  assert.equal(schemaVersionError('wpb_', 7, 7, 'postgresSchema'), undefined);
  assert.equal(schemaVersionError('wpb_', undefined, 7, 'postgresSchema')?.message, "The payment store's tables (wpb_*) have no schema version; run postgresSchema()'s SQL.");
  assert.equal(
    schemaVersionError('shop_', 3, 4, 'mysqlSchema')?.message,
    "The payment store's tables (shop_*) have schema version 3; this code reads version 4: run mysqlSchema()'s SQL to migrate them.",
  );
  assert.equal(schemaVersionError('wpb_', 8, 7, 'postgresSchema')?.message, "The payment store's tables (wpb_*) have schema version 8; this code reads version 7.");
});
