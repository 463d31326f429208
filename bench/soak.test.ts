/**
 * The soak in `npm test`: 6 seconds (`npm run soak` runs ten minutes by default), two handler processes on
 * a throwaway PostgreSQL, the sandbox, mixed traffic; every check of the soak must hold. The sandbox's
 * list is read cut to its newest 10 bookings, so the run goes past the list's bound (10,000 in a long
 * soak) and shows the checks count from each booking's record, not from that list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatReport, runSoak } from './soak.js';

test('soak, 6 seconds, past the list\'s bound: every final result delivered once, no order paid twice, nothing lost, no 5xx', { timeout: 240_000 }, async () => {
  const report = await runSoak({ minutes: 0.1, listBound: 10 });
  const text = formatReport(report);
  assert.ok(report.listed <= 10 && report.bookings > report.listed, `the run did not go past the list's bound\n${text}`);
  for (const [name, found] of Object.entries(report.checks)) assert.deepEqual(found, [], `${name}\n${text}`);
  assert.ok(report.requests >= 100, `only ${report.requests} requests in 6 seconds\n${text}`);
  for (const name of ['payment', 'refusal', 'cancel', 'refund', 'twoTabs']) assert.ok((report.scenarios[name] ?? 0) > 0, `no ${name} ran\n${text}`);
  assert.ok(report.paid > 0 && report.injected.hookFailures > 0 && report.injected.callbackRetries > 0, text);
  assert.deepEqual(Object.keys(report.byCode).filter((code) => !/\((200)\)$/.test(code)), [], text);
  assert.equal(report.memory.length, 2);
  assert.match(text, /p50 [\d.]+ ms, p99 [\d.]+ ms/);
});

test('the model soak report names how many sequences ran on each store and how many pause rounds, for docs/faults.md', async () => {
  const { formatModelReport } = await import('./soak-model.js');
  const text = formatModelReport({ seconds: 600.4, sequences: { memory: 1200, postgres: 850, pglite: 900 }, pauses: { rounds: 97, breaks: [] } });
  assert.match(text, /^Model soak: 600 s, 2950 generated sequences \(memory 1200, postgres 850, pglite 900\)$/m);
  assert.match(text, /^Process pauses: 97 rounds .*, 0 breaks$/m);
  assert.match(text, /^OK /m);
  const failed = formatModelReport({ seconds: 30, sequences: { memory: 50 }, pauses: { rounds: 3, breaks: [] }, failure: 'postgres: seed 1, path "2"' });
  assert.match(failed, /^FAIL postgres: seed 1, path "2"$/m);
});
