/**
 * The intent service's routes on a sandbox started in-process: the API's method and media refusals,
 * the signed form that opens the web payment page, the page routes' methods and forms, the revert
 * control, and the log line of every request. service.test.ts holds the API's own rules;
 * ../fault-header.test.ts the faults.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { CODES, HTTP_STATUS_OF_CODE } from '../../../../src/protocol/contract.js';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { book, pay } from '../support.js';

describe("the intent service's routes on a sandbox's two origins", () => {
  const KEY = 'k';
  const lines: string[] = [];
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: 'P', log: (line) => void lines.push(line) });
  });
  after(() => sandbox.close());

  const sign = (message: string) => createHmac('sha256', KEY).update(message).digest('base64');
  const form = (url: string, fields: Record<string, string>, type = 'application/x-www-form-urlencoded') =>
    fetch(url, { method: 'POST', headers: { 'content-type': type }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });

  /** A fresh BOOKED booking's ids. */
  async function booked(): Promise<{ booking_id: string; correlation_id: string }> {
    const { body } = await book(sandbox.baseUrl, { key: KEY, product: 'P' });
    return { booking_id: body.data!['booking_id']!, correlation_id: body.data!['correlation_id']! };
  }

  test('an API operation takes only POST with a JSON body; every request is logged with its answer', async () => {
    const get = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/status`);
    assert.equal(get.status, HTTP_STATUS_OF_CODE[CODES.METHOD_NOT_ALLOWED]);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal(((await get.json()) as { error_message: string }).error_message, 'GET is not allowed; use POST.');
    const text = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/book`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' });
    assert.equal(((await text.json()) as { code: string }).code, CODES.UNSUPPORTED_MEDIA_TYPE);
    assert.ok(lines.includes('service GET /api/client/intent/payment/status -> 405'), lines.join('\n'));
    assert.ok(lines.includes('service POST /api/client/intent/payment/book -> 415'));
  });

  test('a status or cancel is logged with the booking it names, or ? when it names none', async () => {
    await fetch(`${sandbox.baseUrl}/api/client/intent/payment/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"booking_id":"B-x"}' });
    await fetch(`${sandbox.baseUrl}/api/client/intent/payment/cancel`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'nope' });
    assert.ok(lines.some((line) => line.startsWith('status asked for booking "B-x" -> IP-')), lines.join('\n'));
    assert.ok(lines.some((line) => line.startsWith('cancel asked for booking ? -> IP-')));
  });

  test('POST /web/pay: exactly the two signed fields, signed with the access key, of a known booking; else refused', async () => {
    const ids = await booked();
    const signed = (fields: Record<string, string>) => ({ ...fields, signed_field_names: 'booking_id,correlation_id', signature: sign(`booking_id=${fields['booking_id']},correlation_id=${fields['correlation_id']}`) });
    const page = await form(sandbox.webPaymentUrl, signed(ids));
    assert.equal(page.status, 200);
    assert.ok((await page.text()).includes(`/web/pay/${ids.booking_id}/confirm`));
    assert.equal((await fetch(sandbox.webPaymentUrl)).status, 405);
    assert.equal((await form(sandbox.webPaymentUrl, { ...signed(ids), extra: '1' })).status, 422);
    assert.equal((await form(sandbox.webPaymentUrl, { booking_id: ids.booking_id, correlation_id: ids.correlation_id, signed_field_names: 'booking_id', signature: sign(`booking_id=${ids.booking_id}`) })).status, 422);
    assert.equal((await form(sandbox.webPaymentUrl, { ...signed(ids), signature: 'forged' })).status, 401);
    assert.equal((await form(sandbox.webPaymentUrl, signed({ ...ids, correlation_id: 'other' }))).status, 404);
    assert.equal((await form(sandbox.webPaymentUrl, signed(ids), 'application/json')).status, 415);
  });

  test('the page routes: GET for the page and POST for its forms; an unknown booking 404, a paid one 409', async () => {
    const { booking_id } = await booked();
    const page = `${sandbox.baseUrl}/web/pay/${encodeURIComponent(booking_id)}`;
    assert.equal((await fetch(page)).status, 200);
    const postPage = await fetch(page, { method: 'POST' });
    assert.deepEqual([postPage.status, postPage.headers.get('allow')], [405, 'GET']);
    const getConfirm = await fetch(`${page}/confirm`);
    assert.deepEqual([getConfirm.status, getConfirm.headers.get('allow')], [405, 'POST']);
    const badMpin = await form(`${page}/confirm`, { mpin: '12', method: 'wallet_balance' });
    assert.equal(badMpin.status, 422);
    assert.ok((await badMpin.text()).includes('Enter an MPIN of 4 to 6 digits.'));
    assert.equal((await pay(sandbox.baseUrl, booking_id)).status, 303);
    assert.equal((await fetch(page)).status, 409);
    assert.equal((await fetch(`${sandbox.baseUrl}/web/pay/B-none`)).status, 404);
    assert.equal((await fetch(`${sandbox.baseUrl}/web/pay/%E0%A4%A`)).status, 404, 'a malformed escape matches no booking');
    assert.equal((await fetch(`${sandbox.linksUrl}/pay/B-none`)).status, 404);
  });

  test('the revert control: POST only; a SUCCESS booking is REVERTED, another is IP-410, an unknown one IP-404', async () => {
    const { booking_id } = await booked();
    const path = `${sandbox.baseUrl}/sandbox/bookings/${booking_id}/revert`;
    assert.equal((await fetch(path)).headers.get('allow'), 'POST');
    const open = (await (await fetch(path, { method: 'POST' })).json()) as { code: string; error_message: string };
    assert.equal(open.code, CODES.ALREADY_PROCESSED);
    assert.match(open.error_message, /is BOOKED\.$/);
    await pay(sandbox.baseUrl, booking_id);
    assert.deepEqual(await (await fetch(path, { method: 'POST' })).json(), { code: CODES.OK, message: 'Transaction reverted', data: { booking_id, status: 'REVERTED' } });
    assert.equal(((await (await fetch(`${sandbox.baseUrl}/sandbox/bookings/B-none/revert`, { method: 'POST' })).json()) as { code: string }).code, CODES.UNKNOWN_BOOKING);
  });
});
