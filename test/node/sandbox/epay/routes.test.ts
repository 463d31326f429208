/**
 * The ePay routes alone, mounted on loopback over a ledger on a clock the test moves (flow.test.ts runs
 * them inside the whole sandbox): what the form, session and status paths answer when asked wrongly
 * (method, content type, size, a reused uuid, a session unknown, finished or expired, a wrong login or
 * scenario, a merchant key gone), the signed success data, the paths they decline, and chaos's keys.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { EpayLedger } from '../../../../src/sandbox/epay/ledger.js';
import { createEpayRoutes, successData, type EpayContext } from '../../../../src/sandbox/epay/routes.js';
import { EPAY_ERRORS, EPAY_SESSION_IDLE_MS } from '../../../../src/sandbox/epay/rules.js';
import { mountForSuite, NOT_MOUNTED } from '../../../support/mounted.js';
import { EPAYTEST, LOGIN, actionsOf, dataOf, epayForm, epayStatus, hmac, postEpay, postForm } from './support.js';

const RESPONSE_FIELDS = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';

describe('ePay routes on loopback', () => {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const lines: string[] = [];
  const ctx: EpayContext = {
    ledger: new EpayLedger({ now: () => clock.now, idleMs: EPAY_SESSION_IDLE_MS }),
    accessKey: 'shop-key',
    productCodes: ['SHOP01'],
    log: (line) => void lines.push(line),
  };
  const routes = createEpayRoutes(ctx);
  const served = mountForSuite(routes);

  /** Posts `fields` and answers the login page's form actions. */
  async function opened(fields: Record<string, string>): Promise<Record<string, string>> {
    const page = await postEpay(served.baseUrl, fields);
    assert.equal(page.status, 200, page.text);
    return actionsOf(page.text);
  }

  test('the form path: GET is 405 with the body eSewa answers; a JSON body or a form over 64 KiB is 400', async () => {
    const get = await fetch(`${served.baseUrl}/api/epay/main/v2/form`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.deepEqual(await get.json(), EPAY_ERRORS.formUnavailable);
    const json = await fetch(`${served.baseUrl}/api/epay/main/v2/form`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(epayForm()) });
    assert.equal(json.status, 400);
    assert.match(((await json.json()) as { error_message: string }).error_message, /^Send an HTML form \(application\/x-www-form-urlencoded\); got "application\/json"/);
    const large = await postEpay(served.baseUrl, epayForm({}, { remarks: 'x'.repeat(70 * 1024) }));
    assert.equal(large.status, 400);
    assert.match(large.text, /larger than 65536 bytes/);
  });

  test('a refused form is logged; a uuid used with other content, or finished, is refused with its reason', async () => {
    const forged = await postEpay(served.baseUrl, epayForm({ key: 'not-the-key' }));
    assert.equal(forged.status, 400);
    assert.deepEqual(JSON.parse(forged.text), EPAY_ERRORS.badSignature);
    assert.ok(lines.some((line) => line.startsWith('epay form refused: Invalid payload signature')), lines.join('\n'));
    const uuid = `reuse-${Date.now()}`;
    const actions = await opened(epayForm({ uuid }));
    assert.ok(lines.includes(`epay EPAYTEST/${uuid} form posted (100.0)`), lines.join('\n'));
    const other = await postEpay(served.baseUrl, epayForm({ uuid, amount: '200' }));
    assert.equal(other.status, 400);
    assert.match(JSON.parse(other.text).error_message, new RegExp(`transaction_uuid "${uuid}" was already used with other content`));
    assert.equal((await postForm(`${served.baseUrl}${actions['cancel']}`, {})).status, 302);
    const finished = await postEpay(served.baseUrl, epayForm({ uuid }));
    assert.equal(finished.status, 400);
    assert.match(JSON.parse(finished.text).error_message, /is already finished \(CANCELED\)/);
  });

  test('a session page: unknown or malformed 404, finished 409, expired 410; its forms take only POST', async () => {
    assert.equal((await fetch(`${served.baseUrl}/epay/session/ES-nothing`)).status, 404);
    assert.equal((await fetch(`${served.baseUrl}/epay/session/%E0%A4%A`)).status, 404, 'a malformed escape is an unknown session');
    const actions = await opened(epayForm());
    const page = actions['pay']!.replace(/\/pay$/, '');
    assert.equal((await fetch(`${served.baseUrl}${page}`)).status, 200);
    const get = await fetch(`${served.baseUrl}${actions['pay']}`);
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    assert.equal((await postForm(`${served.baseUrl}${actions['fail']}`, {})).status, 302);
    const finished = await fetch(`${served.baseUrl}${page}`);
    assert.equal(finished.status, 410, 'a failed payment reads NOT_FOUND, as an expired one');
    const idle = await opened(epayForm());
    clock.now += EPAY_SESSION_IDLE_MS;
    assert.equal((await postForm(`${served.baseUrl}${idle['pay']}`, LOGIN)).status, 410);
    const paid = await opened(epayForm());
    assert.equal((await postForm(`${served.baseUrl}${paid['pay']}`, LOGIN)).status, 302);
    const again = await postForm(`${served.baseUrl}${paid['pay']}`, LOGIN);
    assert.equal(again.status, 409);
    assert.match(again.text, /already COMPLETE/);
  });

  test('pay: a wrong login or an unknown scenario answers the page again (422) and leaves the session open', async () => {
    const uuid = `login-${Date.now()}`;
    const actions = await opened(epayForm({ uuid }));
    const wrong = await postForm(`${served.baseUrl}${actions['pay']}`, { ...LOGIN, token: '000000' });
    assert.equal(wrong.status, 422);
    assert.match(wrong.text, /Wrong eSewa ID, password or token/);
    const scenario = await postForm(`${served.baseUrl}${actions['pay']}`, { ...LOGIN, scenario: 'EPAY-999' });
    assert.equal(scenario.status, 422);
    assert.match(scenario.text, /Choose a scenario of the list/);
    assert.equal((await epayStatus(served.baseUrl, EPAYTEST, '100', uuid)).body['status'], 'PENDING');
    const failed = await postForm(`${served.baseUrl}${actions['pay']}`, { ...LOGIN, scenario: 'EPAY-002' });
    assert.equal(failed.status, 302);
    assert.equal(failed.response.headers.get('location'), 'http://127.0.0.1:9/esewa/failure');
  });

  test('the success data is signed over the comma-less amount with the product code’s key; a key gone is a 500', async () => {
    const uuid = `own-${Date.now()}`;
    const actions = await opened(epayForm({ product: 'SHOP01', key: 'shop-key', amount: '2700', uuid }));
    const paid = await postForm(`${served.baseUrl}${actions['pay']}`, LOGIN);
    assert.equal(paid.status, 302);
    assert.equal(paid.response.headers.get('referrer-policy'), 'no-referrer');
    const { data } = dataOf(paid.response.headers.get('location')!);
    assert.equal(data['total_amount'], '2,700.0');
    const message = `transaction_code=${data['transaction_code']},status=COMPLETE,total_amount=2700.0,transaction_uuid=${uuid},product_code=SHOP01,signed_field_names=${RESPONSE_FIELDS}`;
    assert.equal(data['signature'], hmac(message, 'shop-key'));
    const transaction = ctx.ledger.lookup('SHOP01', uuid)!;
    assert.equal(await successData(transaction, 'shop-key'), paid.response.headers.get('location')!.split('?data=')[1]);
    const gone = await opened(epayForm({ product: 'SHOP01', key: 'shop-key' }));
    ctx.productCodes = [];
    try {
      const refused = await postForm(`${served.baseUrl}${gone['pay']}`, LOGIN);
      assert.equal(refused.status, 500);
      assert.match(refused.text, /no key for SHOP01/);
    } finally {
      ctx.productCodes = ['SHOP01'];
    }
  });

  test('the status check: GET only, its three fields required; another amount reads NOT_FOUND at the amount asked', async () => {
    const post = await fetch(`${served.baseUrl}/api/epay/transaction/status/`, { method: 'POST' });
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET');
    const missing = await fetch(`${served.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=1e2&transaction_uuid=u`);
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { error_message: string }).error_message, /total_amount \(a decimal number\)/);
    const uuid = `status-${Date.now()}`;
    await opened(epayForm({ uuid, amount: '150' }));
    assert.equal((await epayStatus(served.baseUrl, EPAYTEST, '150.00', uuid)).raw, `{"product_code":"EPAYTEST","transaction_uuid":"${uuid}","total_amount":150.0,"status":"PENDING","ref_id":null}`);
    assert.equal((await epayStatus(served.baseUrl, EPAYTEST, '151', uuid)).raw, `{"product_code":"EPAYTEST","transaction_uuid":"${uuid}","total_amount":151.0,"status":"NOT_FOUND","ref_id":null}`);
    assert.ok(lines.includes(`epay status EPAYTEST/${uuid} -> NOT_FOUND`));
  });

  test('paths of no ePay route are declined, for the next routes to answer', async () => {
    for (const path of ['/api/epay/other', '/epay/session/a/b/c', '/epay/session/', '/api/client/intent/payment/book']) {
      const answer = await fetch(`${served.baseUrl}${path}`);
      assert.equal(answer.status, NOT_MOUNTED.status, path);
      assert.equal(await answer.text(), NOT_MOUNTED.body, path);
    }
  });

  test("chaos's key: the form's and the status check's uuid, and a session's merchant uuid, never touching it", async () => {
    const request = (url: string) => ({ url }) as IncomingMessage;
    const keyOf = routes.chaosKey!;
    assert.deepEqual(keyOf(request('/api/epay/main/v2/form'), '/api/epay/main/v2/form', 'amount=1&transaction_uuid=T-9'), { kind: 'epay form', subject: 'T-9' });
    assert.deepEqual(keyOf(request('/api/epay/transaction/status/?transaction_uuid=T-8'), '/api/epay/transaction/status/', ''), { kind: 'epay status', subject: 'T-8' });
    const uuid = `chaos-${Date.now()}`;
    const actions = await opened(epayForm({ uuid }));
    const before = ctx.ledger.lookup(EPAYTEST, uuid)!.touched_at;
    clock.now += 1000;
    const session = actions['pay']!.split('/')[3]!;
    assert.deepEqual(keyOf(request(actions['pay']!), actions['pay']!, ''), { kind: 'epay pay', subject: uuid });
    assert.deepEqual(keyOf(request(`/epay/session/${session}`), `/epay/session/${session}`, ''), { kind: 'epay page', subject: uuid });
    assert.equal(ctx.ledger.lookup(EPAYTEST, uuid)!.touched_at, before, 'the lookup did not touch the session');
    assert.deepEqual(keyOf(request('/epay/session/ES-x/cancel'), '/epay/session/ES-x/cancel', ''), { kind: 'epay cancel', subject: 'ES-x' });
    assert.equal(keyOf(request('/sandbox/epay/transactions'), '/sandbox/epay/transactions', ''), undefined);
  });
});
