/**
 * The sandbox's own controls under `/sandbox/`, on a sandbox started in-process on a fixed clock: the
 * clock read and moved (and each refusal), the sticky scenario per product code, the catalogue, a
 * booking's record, the callback desk's filters, page and resend refusals, and the ePay controls
 * reached through them. callbacks.test.ts holds the desk's bounds and resend targets.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES } from '../../../src/protocol/contract.js';
import { SCENARIOS, magicAmountOf } from '../../../src/sandbox/esewa-intent/scenarios.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { book, control, pay, startReceiver, type Receiver } from './support.js';

const START = Date.UTC(2026, 0, 1);

describe('the sandbox controls', () => {
  const lines: string[] = [];
  let sandbox: Sandbox;
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
    sandbox = await startSandbox({ accessKey: 'k', productCode: ['P', 'Q'], now: () => START, log: (line) => void lines.push(line), callbackRetry: { attempts: 1, baseDelayMs: 0 } });
  });
  after(async () => {
    await sandbox.close();
    await receiver.close();
  });

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

  test('a sticky scenario per product code: set, read, cleared with null; an unknown code or scenario is refused', async () => {
    const set = await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: 'Q', scenario: 'wps-002' });
    assert.equal(set.status, 200);
    assert.deepEqual((await control(sandbox.baseUrl, '/sandbox/scenario')).data, { Q: 'WPS-002' });
    assert.ok(lines.some((line) => line.startsWith('scenario for Q: WPS-002 ')), lines.join('\n'));
    const noCode = await control(sandbox.baseUrl, '/sandbox/scenario', { scenario: 'WPS-002' });
    assert.match(String(noCode.body['error_message']), /^product_code must be one of the sandbox's: P, Q\.$/, 'with two codes, the code must be named');
    assert.equal((await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: 'R', scenario: 'WPS-002' })).body['code'], CODES.INVALID_REQUEST);
    const unknown = await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: 'P', scenario: 'WPS-999' });
    assert.match(String(unknown.body['error_message']), /scenario must be a catalogue ID \(WPS-001 \.\.\.\) or null; got "WPS-999"/);
    assert.equal((await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: 'P' })).body['code'], CODES.INVALID_REQUEST, 'a missing scenario is not null');
    assert.deepEqual((await control(sandbox.baseUrl, '/sandbox/scenario', { product_code: 'Q', scenario: null })).data, {});
    assert.ok(lines.includes('scenario for Q: none'));
  });

  test('the catalogue, each scenario with its magic amount', async () => {
    const listed = await control<Array<{ id: string; magic_amount: number }>>(sandbox.baseUrl, '/sandbox/scenarios');
    assert.deepEqual(listed.data.map((s) => [s.id, s.magic_amount]), SCENARIOS.map((s) => [s.id, magicAmountOf(s)]));
  });

  test("a booking's record, its id read escaped; an unknown one is IP-404", async () => {
    const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
    const id = body.data!['booking_id']!;
    const record = await control<{ booking_id: string; status: string }>(sandbox.baseUrl, `/sandbox/bookings/${encodeURIComponent(id)}`);
    assert.equal(record.data.booking_id, id);
    assert.equal(record.data.status, 'BOOKED');
    const unknown = await control(sandbox.baseUrl, '/sandbox/bookings/B-none');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body['error_message'], 'No booking "B-none".');
  });

  test('the desk: deliveries filtered by state and booking, its page, and the refusals of a resend', async () => {
    const { body } = await book(sandbox.baseUrl, { key: 'k', product: 'P', callbackUrl: receiver.url });
    const id = body.data!['booking_id']!;
    await pay(sandbox.baseUrl, id);
    await sandbox.whenCallbacksSettled();
    const mine = await control<Array<{ id: string; booking_id: string; state: string }>>(sandbox.baseUrl, `/sandbox/callbacks?booking_id=${encodeURIComponent(id)}`);
    assert.deepEqual(mine.data.map((d) => [d.booking_id, d.state]), [[id, 'delivered']]);
    assert.deepEqual((await control<unknown[]>(sandbox.baseUrl, `/sandbox/callbacks?booking_id=${encodeURIComponent(id)}&state=failed`)).data, []);
    const page = await fetch(`${sandbox.baseUrl}/sandbox/desk`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.ok((await page.text()).includes(id), 'the desk page lists the delivery');
    const delivery = mine.data[0]!.id;
    const get = await fetch(`${sandbox.baseUrl}/sandbox/callbacks/${delivery}/resend`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await control(sandbox.baseUrl, `/sandbox/callbacks/${delivery}/resend`, { url: 42 })).body['error_message'], 'url must be a string.');
    assert.match(String((await control(sandbox.baseUrl, `/sandbox/callbacks/${delivery}/resend`, { url: 'https://elsewhere.example/cb' })).body['error_message']), /never elsewhere/);
    const resent = await control<{ id: string; resend_of: string }>(sandbox.baseUrl, `/sandbox/callbacks/${delivery}/resend`, {});
    assert.equal(resent.data.resend_of, delivery);
    assert.ok(lines.includes(`callback ${id}: ${delivery} resent as ${resent.data.id}`), lines.join('\n'));
    await sandbox.whenCallbacksSettled();
    assert.equal(receiver.received.filter((r) => r.body['correlation_id'] === body.data!['correlation_id']).length, 2, 'refused resends sent nothing');
  });

  test("the ePay controls are reached under /sandbox/epay/; an unknown control is the sandbox's IP-444", async () => {
    assert.equal((await control(sandbox.baseUrl, '/sandbox/epay/transactions')).body['message'], 'ePay transactions');
    const none = await control(sandbox.baseUrl, '/sandbox/nothing');
    assert.equal(none.status, 404);
    assert.equal(none.body['error_message'], 'No endpoint at /sandbox/nothing.');
  });
});
