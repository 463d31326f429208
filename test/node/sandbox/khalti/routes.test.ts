/**
 * The Khalti routes alone, mounted on loopback over payments on a clock the test moves (api.test.ts and
 * flow.test.ts run them inside the whole sandbox): the API calls' method, key and body refusals in
 * Khalti's shapes, the log lines, the pay page's answers for each state of a payment, the return URL
 * with Khalti's parameters, the controls, the paths they decline, and chaos's keys.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { KhaltiPayments, type KhaltiPayment } from '../../../../src/sandbox/khalti/payments.js';
import { createKhaltiRoutes, KHALTI_PAY_PATH, returnLocation } from '../../../../src/sandbox/khalti/routes.js';
import { mountForSuite, NOT_MOUNTED } from '../../../support/mounted.js';
import { getPage, initiate, initiateBody, khaltiPost, lookup, submitPage } from './support.js';

const KEY = 'sandbox-access-key';

describe('Khalti routes on loopback', () => {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const lines: string[] = [];
  const payments = new KhaltiPayments({ now: () => clock.now, expiresIn: 1800, payUrl: (pidx) => `${served.baseUrl}${KHALTI_PAY_PATH}?pidx=${pidx}` });
  const routes = createKhaltiRoutes({ payments, accessKey: KEY, log: (line) => void lines.push(line) });
  const served = mountForSuite(routes);

  test('an API call takes only POST, behind Key <access key>: Khalti’s two 401 bodies, before the body is read', async () => {
    const get = await fetch(`${served.baseUrl}/api/v2/epayment/lookup/`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.deepEqual(await get.json(), { detail: 'Method "GET" not allowed.' });
    const none = await khaltiPost(served.baseUrl, '/api/v2/epayment/initiate/', initiateBody(), { headers: { 'content-type': 'application/json' } });
    assert.deepEqual([none.status, none.json], [401, { detail: 'Authentication credentials were not provided.', status_code: 401 }]);
    const wrong = await khaltiPost(served.baseUrl, '/api/v2/epayment/initiate/', '{not json', { key: 'other' });
    assert.deepEqual([wrong.status, wrong.json], [401, { detail: 'Invalid token.', status_code: 401 }], 'the key is judged first');
    const lower = await khaltiPost(served.baseUrl, '/api/v2/epayment/initiate/', initiateBody(), { headers: { authorization: `key ${KEY}`, 'content-type': 'application/json' } });
    assert.equal(lower.status, 200, 'the scheme is read case-insensitively');
  });

  test('a body: empty is {}, not JSON is 415, malformed is 400, over 64 KiB is 413', async () => {
    const empty = await khaltiPost(served.baseUrl, '/api/v2/epayment/lookup/', undefined);
    assert.deepEqual([empty.status, empty.json], [400, { pidx: ['This field is required.'], error_key: 'validation_error' }]);
    const text = await khaltiPost(served.baseUrl, '/api/v2/epayment/lookup/', 'pidx=x', { headers: { authorization: `Key ${KEY}`, 'content-type': 'text/plain' } });
    assert.deepEqual([text.status, text.json], [415, { detail: 'Unsupported media type "text/plain" in request.' }]);
    const malformed = await khaltiPost(served.baseUrl, '/api/v2/epayment/lookup/', '{"pidx":');
    assert.equal(malformed.status, 400);
    assert.match(String(malformed.json['detail']), /^JSON parse error - /);
    const large = await khaltiPost(served.baseUrl, '/api/v2/epayment/initiate/', initiateBody({ purchase_order_name: 'x'.repeat(70 * 1024) }));
    assert.deepEqual([large.status, large.json], [413, { detail: 'Request body larger than 65536 bytes.' }]);
  });

  test('initiate and lookup are logged; a scenario comes by the Wallet-Pay-Scenario header', async () => {
    const { pidx, body } = await initiate(served.baseUrl, {}, { authorization: `Key ${KEY}`, 'content-type': 'application/json', 'wallet-pay-scenario': 'KHALTI-002' });
    assert.equal(body['payment_url'], `${served.baseUrl}/khalti/pay/?pidx=${pidx}`);
    assert.ok(lines.includes(`khalti initiate -> 200 ${pidx} [KHALTI-002]`), lines.join('\n'));
    assert.equal((await lookup(served.baseUrl, pidx)).json['status'], 'Initiated');
    assert.ok(lines.includes(`khalti lookup ${pidx} -> 200 Initiated`));
    await lookup(served.baseUrl, 'nothing');
    assert.ok(lines.includes('khalti lookup ? -> 404 Not found.'));
  });

  test('the pay page: unknown 404, open 200, wrong login 422, paid 302 to the return URL, then closed 409', async () => {
    assert.equal((await getPage(`${served.baseUrl}/khalti/pay/?pidx=nothing`)).status, 404);
    const { pidx } = await initiate(served.baseUrl);
    const page = await getPage(`${served.baseUrl}/khalti/pay/?pidx=${pidx}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(pidx));
    const wrong = await submitPage(served.baseUrl, pidx, { otp: '111111' });
    assert.equal(wrong.status, 422);
    assert.ok(wrong.text.includes('Wrong Khalti ID, MPIN or OTP.'));
    const scenario = await submitPage(served.baseUrl, pidx, { scenario: 'KHALTI-999' });
    assert.equal(scenario.status, 422);
    assert.ok(scenario.text.includes('Choose a scenario of the list'));
    const paid = await submitPage(served.baseUrl, pidx);
    assert.equal(paid.status, 302);
    assert.equal(paid.headers.get('location'), returnLocation(payments.get(pidx)!));
    assert.ok(lines.includes(`khalti ${pidx} -> Completed`));
    assert.equal((await getPage(`${served.baseUrl}/khalti/pay/?pidx=${pidx}`)).status, 409);
    assert.equal((await submitPage(served.baseUrl, pidx)).status, 409);
  });

  test('the pay page: cancel goes back with empty ids; an expired link is 410; only GET and its own form POST', async () => {
    const { pidx } = await initiate(served.baseUrl);
    const canceled = await submitPage(served.baseUrl, pidx, { action: 'cancel' });
    assert.equal(canceled.status, 302);
    const back = new URL(canceled.headers.get('location')!);
    assert.deepEqual([back.searchParams.get('status'), back.searchParams.get('transaction_id'), back.searchParams.get('mobile')], ['User canceled', '', '']);
    const idle = await initiate(served.baseUrl);
    clock.now += 1800_000;
    assert.equal((await getPage(`${served.baseUrl}/khalti/pay/?pidx=${idle.pidx}`)).status, 410);
    const put = await fetch(`${served.baseUrl}/khalti/pay/`, { method: 'PUT' });
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST');
    const json = await fetch(`${served.baseUrl}/khalti/pay/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ pidx }) });
    assert.equal(json.status, 415);
  });

  test('returnLocation: Khalti’s parameters in its order, after a query the return URL already has, the payer masked', () => {
    const payment = {
      ...initiateBody(),
      pidx: 'P1',
      amount: 1250,
      purchase_order_name: 'Masala <tea>',
      status: 'Completed',
      transaction_id: 'T1',
      khalti_id: '9800000004',
    } as unknown as KhaltiPayment;
    assert.equal(
      returnLocation(payment),
      'http://127.0.0.1:9/khalti/return?cart=7&pidx=P1&txnId=T1&amount=1250&total_amount=1250&status=Completed&mobile=98XXXXX004&tidx=T1&purchase_order_id=order-1&purchase_order_name=Masala%20%3Ctea%3E&transaction_id=T1',
    );
    assert.equal(returnLocation({ ...payment, return_url: 'http://127.0.0.1:9/r' }).split('?')[1]!.split('&')[0], 'pidx=P1');
  });

  test('a refund by transaction id; an unknown one is 404', async () => {
    const { pidx } = await initiate(served.baseUrl);
    await submitPage(served.baseUrl, pidx);
    const transaction = payments.get(pidx)!.transaction_id!;
    const refund = await khaltiPost(served.baseUrl, `/api/merchant-transaction/${transaction}/refund/`, { amount: 250 });
    assert.deepEqual([refund.status, refund.json], [200, { detail: 'Transaction refund successful.' }]);
    assert.equal((await lookup(served.baseUrl, pidx)).json['status'], 'Partially Refunded');
    assert.equal((await khaltiPost(served.baseUrl, '/api/merchant-transaction/nothing/refund/', {})).status, 404);
    assert.equal((await khaltiPost(served.baseUrl, '/api/merchant-transaction/%E0%A4%A/refund/', {})).status, 404, 'a malformed escape matches nothing');
  });

  test('the controls: scenarios with their magic paisa, one payment’s record; other paths are declined', async () => {
    const scenarios = (await (await fetch(`${served.baseUrl}/sandbox/khalti/scenarios`)).json()) as Array<{ id: string; magic_amount_paisa: number }>;
    assert.deepEqual(scenarios.slice(0, 2).map((s) => [s.id, s.magic_amount_paisa]), [['KHALTI-001', 8001], ['KHALTI-002', 8002]]);
    const { pidx } = await initiate(served.baseUrl);
    const record = await fetch(`${served.baseUrl}/sandbox/khalti/payments/${pidx}`);
    assert.equal(((await record.json()) as { pidx: string }).pidx, pidx);
    assert.equal((await fetch(`${served.baseUrl}/sandbox/khalti/payments/nothing`)).status, 404);
    for (const path of ['/api/v2/epayment/status/', '/api/merchant-transaction/x/refund', '/khalti/pay', '/sandbox/khalti']) {
      const answer = await fetch(`${served.baseUrl}${path}`);
      assert.equal(answer.status, NOT_MOUNTED.status, path);
      assert.equal(await answer.text(), NOT_MOUNTED.body, path);
    }
  });

  test("chaos's key: the merchant's purchase_order_id behind each call and page", async () => {
    const keyOf = routes.chaosKey!;
    const request = (url: string, method = 'GET') => ({ url, method }) as IncomingMessage;
    const { pidx } = await initiate(served.baseUrl, { purchase_order_id: 'order-chaos' });
    assert.deepEqual(keyOf(request('/api/v2/epayment/initiate/', 'POST'), '/api/v2/epayment/initiate/', JSON.stringify({ purchase_order_id: 'O-9' })), { kind: 'khalti initiate', subject: 'O-9' });
    assert.deepEqual(keyOf(request('/api/v2/epayment/lookup/', 'POST'), '/api/v2/epayment/lookup/', JSON.stringify({ pidx })), { kind: 'khalti lookup', subject: 'order-chaos' });
    assert.deepEqual(keyOf(request('/api/v2/epayment/lookup/', 'POST'), '/api/v2/epayment/lookup/', 'not json'), { kind: 'khalti lookup', subject: '' });
    assert.deepEqual(keyOf(request(`/khalti/pay/?pidx=${pidx}`), KHALTI_PAY_PATH, ''), { kind: 'khalti page', subject: 'order-chaos' });
    assert.deepEqual(keyOf(request('/khalti/pay/', 'POST'), KHALTI_PAY_PATH, `pidx=${pidx}&action=cancel`), { kind: 'khalti cancel', subject: 'order-chaos' });
    assert.deepEqual(keyOf(request('/khalti/pay/', 'POST'), KHALTI_PAY_PATH, `pidx=${pidx}&action=pay`), { kind: 'khalti pay', subject: 'order-chaos' });
    await submitPage(served.baseUrl, pidx);
    const transaction = payments.get(pidx)!.transaction_id!;
    const refundPath = `/api/merchant-transaction/${transaction}/refund/`;
    assert.deepEqual(keyOf(request(refundPath, 'POST'), refundPath, '{}'), { kind: 'khalti refund', subject: 'order-chaos' });
    assert.deepEqual(keyOf(request('/api/merchant-transaction/T-x/refund/', 'POST'), '/api/merchant-transaction/T-x/refund/', '{}'), { kind: 'khalti refund', subject: 'T-x' });
    assert.equal(keyOf(request('/sandbox/khalti/scenarios'), '/sandbox/khalti/scenarios', ''), undefined);
  });
});
