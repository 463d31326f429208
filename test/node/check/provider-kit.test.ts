/**
 * The ePay and Khalti kit of the checker's tests (support.ts): a kit that cannot start leaves no server
 * running behind it (the run would not end), and the /book spoiler changes only what it is asked to,
 * only while asked.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { bookSpoiler, startProviderKit } from './support.js';

test('a kit whose layer throws rejects with that error and closes the servers it started', { timeout: 30_000 }, async () => {
  let started: Sandbox | undefined;
  await assert.rejects(
    startProviderKit('khalti', (_kit, sandbox) => {
      started = sandbox;
      throw new Error('no layer');
    }),
    /no layer/,
  );
  assert.ok(started, 'the layer was given the sandbox');
  await assert.rejects(fetch(started.baseUrl, { signal: AbortSignal.timeout(5_000) }), TypeError, 'the sandbox no longer answers');
});

test("the spoiler changes the kit's /book data while its work runs, and nothing after", async () => {
  const { wrap, spoiled } = bookSpoiler();
  const layer = wrap(async () => Response.json({ code: 'IP-201', data: { wallet: 'khalti' } }));
  const book = async () => ((await (await layer(new Request('http://127.0.0.1/pay/book', { method: 'POST' }))).json()) as { data: { wallet: string } }).data.wallet;
  assert.equal(await spoiled((data) => void (data['wallet'] = 'esewa'), book), 'esewa');
  assert.equal(await book(), 'khalti');
  const other = await spoiled((data) => void (data['wallet'] = 'esewa'), async () => (await layer(new Request('http://127.0.0.1/pay/status', { method: 'POST' }))).json());
  assert.deepEqual(other, { code: 'IP-201', data: { wallet: 'khalti' } }, 'another route passes untouched');
  await assert.rejects(spoiled(() => undefined, () => Promise.reject(new Error('work failed'))), /work failed/);
  assert.equal(await book(), 'khalti', 'a failed work leaves the spoiler off');
});
