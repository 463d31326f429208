/**
 * docs/runtimes.md's table against the examples folder: one row per example and one example per
 * row, and each row says what the example's test really does (browser or not, the store, the way
 * reconciliation runs). Also what every example shares: a README of at most 40 lines and the same
 * `shop.ts`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { EXAMPLES, ROOT } from './workspace.js';

/**
 * Folders of examples/ that other parts of the project own: server examples in other languages, the
 * sandbox's journey files (docs/sandbox.md; run by test/node/sandbox/esewa-intent/journey.test.ts) and the host-app
 * bridges of docs/webview.md, and the merchant testing guide's examples (docs/testing-your-shop.md; run by
 * test/node/docs-testing.test.ts), none a runtime.
 */
const NOT_RUNTIME_EXAMPLES = new Set(['backends', 'journeys', 'testing', 'webview']);
const WAYS: Record<string, string> = { timer: 'timer', 'status check': 'status-check', 'cron route': 'cron-route', scheduled: 'scheduled' };

interface Row {
  name: string;
  tested: string;
  storeInTests: string;
  reconciliation: string;
}

function tableRows(): Row[] {
  const docs = readFileSync(join(ROOT, 'docs', 'runtimes.md'), 'utf8');
  const rows: Row[] = [];
  for (const line of docs.split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const name = /\(\.\.\/examples\/([\w-]+)\/\)/.exec(cells[1] ?? '')?.[1];
    if (cells.length === 6 && name) rows.push({ name, tested: cells[2]!, storeInTests: cells[3]!, reconciliation: cells[5]! });
  }
  return rows;
}

const folders = readdirSync(EXAMPLES).filter((name) => statSync(join(EXAMPLES, name)).isDirectory() && !NOT_RUNTIME_EXAMPLES.has(name)).sort();

test('docs/runtimes.md has one row per example folder, and no row without one', () => {
  assert.deepEqual(tableRows().map((row) => row.name).sort(), folders);
});

test('each row says what its example test does: browser, store, reconciliation', () => {
  for (const row of tableRows()) {
    const file = join(ROOT, 'test', 'examples', `${row.name}.test.ts`);
    assert.ok(existsSync(file), `${row.name}: no test/examples/${row.name}.test.ts`);
    const source = readFileSync(file, 'utf8');
    assert.equal(/browser: true/.test(source), /\bbrowser\b/.test(row.tested), `${row.name}: the browser column`);
    assert.match(row.tested, /journey, reconciliation, memory warning, checker/, `${row.name}: every example runs these`);
    assert.equal(/postgres: true/.test(source), /PostgreSQL/.test(row.storeInTests), `${row.name}: the store column`);
    const way = /reconcile: '([\w-]+)'/.exec(source)?.[1];
    const documented = Object.entries(WAYS).find(([words]) => row.reconciliation.startsWith(`${words}:`))?.[1];
    assert.equal(documented, way, `${row.name}: the reconciliation column`);
  }
});

test('each example has a README of at most 40 lines and the same shop.ts', () => {
  const shop = readFileSync(join(EXAMPLES, 'node-http', 'shop.ts'), 'utf8');
  for (const name of folders) {
    const readme = readFileSync(join(EXAMPLES, name, 'README.md'), 'utf8');
    assert.ok(readme.trimEnd().split('\n').length <= 40, `${name}/README.md is longer than 40 lines`);
    assert.match(readme, /\/api\/pay/, `${name}/README.md names the mount`);
    const copy = [join(EXAMPLES, name, 'shop.ts'), join(EXAMPLES, name, 'lib', 'shop.ts')].find((path) => existsSync(path));
    assert.ok(copy, `${name} has shop.ts`);
    assert.equal(readFileSync(copy, 'utf8'), shop, `${name}'s shop.ts is the shared one`);
  }
});
