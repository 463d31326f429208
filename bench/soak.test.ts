/**
 * The soak in `npm test`: half a minute (`npm run soak` runs ten by default), two handler processes on
 * a throwaway PostgreSQL, the sandbox, mixed traffic; every check of the soak must hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReport, runSoak } from './soak.js';

test('soak, 0.5 minutes: every final result delivered once, no order paid twice, nothing lost, no 5xx', { timeout: 240_000 }, async () => {
  const report = await runSoak({ minutes: 0.5 });
  const text = formatReport(report);
  for (const [name, found] of Object.entries(report.checks)) assert.deepEqual(found, [], `${name}\n${text}`);
  assert.ok(report.requests >= 100, `only ${report.requests} requests in half a minute\n${text}`);
  for (const name of ['payment', 'refusal', 'cancel', 'refund', 'twoTabs']) assert.ok((report.scenarios[name] ?? 0) > 0, `no ${name} ran\n${text}`);
  assert.ok(report.paid > 0 && report.injected.hookFailures > 0 && report.injected.callbackRetries > 0, text);
  assert.deepEqual(Object.keys(report.byCode).filter((code) => !/\((200)\)$/.test(code)), [], text);
  assert.equal(report.memory.length, 2);
  assert.match(text, /p50 [\d.]+ ms, p99 [\d.]+ ms/);
});
