/**
 * `wallet-pay-button/testing`: the fixtures, called as Playwright calls them: a sandbox of the test's
 * own, closed after it even when the test fails, `expectCallback` on it (its own tests are in
 * test/node/sandbox/esewa-intent/expect-callback.test.ts), and journeys run against it. A real sandbox
 * and a real merchant receiver on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { expectCallback, walletPayFixtures } from '../../../src/testing/index.js';
import { expectCallback as expectCallbackItself } from '../../../src/sandbox/esewa-intent/expect-callback.js';
import { callbackBench, pay } from '../sandbox/support.js';

const bench = callbackBench();
const { booked } = bench;

test("the entry's expectCallback is the intent service's desk waiter", () => {
  assert.equal(expectCallback, expectCallbackItself);
});

test('the fixture waits on the test\'s sandbox', async () => {
  const id = await booked();
  await pay(bench.sandbox.baseUrl, id);
  await walletPayFixtures.expectCallback({ walletPaySandbox: bench.sandbox }, async (expect) => {
    assert.equal((await expect(id, { status: 'SUCCESS', within: '10s' })).length, 1);
    await assert.rejects(expect(id, { count: 0, within: 50 }), /expected no callback/);
  });
});

test('the sandbox fixture: one of the options given, listening during the test and closed after it, even when the test throws', async () => {
  let seen: Sandbox | undefined;
  await walletPayFixtures.walletPaySandbox({ walletPaySandboxOptions: { productCode: 'FIX01' } }, async (given) => {
    seen = given;
    assert.deepEqual(given.productCodes, ['FIX01']);
    assert.equal((await fetch(`${given.baseUrl}/sandbox/clock`)).status, 200);
  });
  await assert.rejects(fetch(`${seen!.baseUrl}/sandbox/clock`), 'closed after the test');
  let thrown: Sandbox | undefined;
  await assert.rejects(
    walletPayFixtures.walletPaySandbox({ walletPaySandboxOptions: {} }, async (given) => {
      thrown = given;
      throw new Error('the test failed');
    }),
    /the test failed/,
  );
  await assert.rejects(fetch(`${thrown!.baseUrl}/sandbox/clock`), 'closed after a failed test too');
  assert.deepEqual(walletPayFixtures.walletPaySandboxOptions, [{}, { option: true }], 'an option of Playwright, empty by default');
});

test("runJourneyFile runs a journey object or file against the test's sandbox", async () => {
  const folder = await mkdtemp(join(tmpdir(), 'journey-'));
  try {
    const file = join(folder, 'clock.json');
    await writeFile(file, JSON.stringify({ name: 'a file', steps: [{ clock: '1h' }] }));
    const before = bench.sandbox.clock.now();
    await walletPayFixtures.runJourneyFile({ walletPaySandbox: bench.sandbox }, async (run) => {
      const object = await run({ name: 'an object', steps: [{ clock: '15m' }] }, { endpoint: 'http://127.0.0.1:9/api/pay' });
      assert.deepEqual([object.name, object.ok], ['an object', true]);
      const fromFile = await run(file, { endpoint: 'http://127.0.0.1:9/api/pay' });
      assert.deepEqual([fromFile.name, fromFile.ok], ['a file', true]);
    });
    const moved = bench.sandbox.clock.now() - before;
    assert.ok(moved >= 75 * 60_000 && moved < 76 * 60_000, `both moved the fixture's sandbox clock: ${moved} ms`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
