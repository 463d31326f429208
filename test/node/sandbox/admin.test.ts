/**
 * The sandbox's own controls under `/sandbox/`, on a sandbox started in-process on a fixed clock: the
 * clock read and moved (and each refusal), and each provider's controls reached after it (the intent
 * service's are esewa-intent/admin.test.ts's, ePay's epay/admin.test.ts's).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES } from '../../../src/protocol/contract.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { control } from './support.js';

const START = Date.UTC(2026, 0, 1);

describe('the sandbox controls', () => {
  const lines: string[] = [];
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: 'k', productCode: 'P', now: () => START, log: (line) => void lines.push(line) });
  });
  after(() => sandbox.close());

  /** A control sent with `type` as its content type and `body` as it is. */
  async function raw(path: string, body: string, type = 'application/json'): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${sandbox.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  test('the clock: read, advanced by a duration, set to a time, each move logged', async () => {
    assert.deepEqual((await control(sandbox.baseUrl, '/sandbox/clock')).data, { now: '2026-01-01T00:00:00.000Z', offset_ms: 0, scheduled: 0 });
    const moved = await control(sandbox.baseUrl, '/sandbox/clock', { advance: '15m' });
    assert.equal(moved.body['message'], 'Clock moved');
    assert.deepEqual(moved.data, { now: '2026-01-01T00:15:00.000Z', offset_ms: 900_000, scheduled: 0 });
    const set = await control<{ now: string; offset_ms: number }>(sandbox.baseUrl, '/sandbox/clock', { set: '2026-01-02T00:00:00Z' });
    assert.deepEqual(set.data, { now: '2026-01-02T00:00:00.000Z', offset_ms: 86_400_000, scheduled: 0 });
    assert.deepEqual(lines.filter((line) => line.startsWith('clock ->')), ['clock -> 2026-01-01T00:15:00.000Z (advanced 15m)', 'clock -> 2026-01-02T00:00:00.000Z (set)']);
  });

  test('the clock refuses both moves at once, neither, a duration or a time it cannot read, and a body that is no JSON object', async () => {
    const before = (await control<{ offset_ms: number }>(sandbox.baseUrl, '/sandbox/clock')).data.offset_ms;
    for (const [body, message] of [
      [{ advance: '1m', set: '2030-01-01T00:00:00Z' }, /^Send \{"advance":"15m"\} or \{"set":/],
      [{}, /^Send \{"advance":"15m"\}/],
      [{ advance: 15 }, /^Send \{"advance":"15m"\}/],
      [{ advance: 'soon' }, /"soon" is not a duration/],
      [{ set: 'tomorrow' }, /"tomorrow" is not a time the clock takes/],
    ] as const) {
      const refused = await control(sandbox.baseUrl, '/sandbox/clock', body);
      assert.equal(refused.body['code'], CODES.INVALID_REQUEST, JSON.stringify(body));
      assert.match(String(refused.body['error_message']), message);
    }
    assert.equal((await raw('/sandbox/clock', '[1]')).body['error_message'], 'The body must be a JSON object.');
    assert.equal((await raw('/sandbox/clock', 'advance=1m', 'application/x-www-form-urlencoded')).body['code'], CODES.UNSUPPORTED_MEDIA_TYPE);
    assert.equal((await control<{ offset_ms: number }>(sandbox.baseUrl, '/sandbox/clock')).data.offset_ms, before, 'no refused move moved it');
  });

  test("each provider's controls are reached after the clock's; an unknown control is the sandbox's IP-444", async () => {
    assert.equal((await control(sandbox.baseUrl, '/sandbox/scenarios')).body['message'], 'Scenarios');
    assert.equal((await control(sandbox.baseUrl, '/sandbox/epay/transactions')).body['message'], 'ePay transactions');
    const none = await control(sandbox.baseUrl, '/sandbox/nothing');
    assert.equal(none.status, 404);
    assert.equal(none.body['error_message'], 'No endpoint at /sandbox/nothing.');
    assert.equal((await control(sandbox.baseUrl, '/sandbox/epay/nothing')).status, 404, "a path under ePay's that ePay does not know");
  });
});
