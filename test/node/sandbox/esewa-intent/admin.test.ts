/**
 * The intent service's controls under `/sandbox/`, on a sandbox started in-process on a fixed clock:
 * the sticky scenario per product code, the catalogue, a booking's record, and the callback desk's
 * filters, page and resend refusals. callbacks.test.ts holds the desk's bounds and resend targets;
 * ../admin.test.ts the clock.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES } from '../../../../src/protocol/contract.js';
import { SCENARIOS, magicAmountOf } from '../../../../src/sandbox/esewa-intent/scenarios.js';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { book, control, pay, startReceiver, type Receiver } from '../support.js';

const START = Date.UTC(2026, 0, 1);

describe("the intent service's controls", () => {
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

});
