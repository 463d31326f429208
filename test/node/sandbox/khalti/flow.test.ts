/**
 * The Khalti emulation end to end over loopback HTTP against `startSandbox`: initiate, the pay page,
 * the return's parameters, lookup's statuses and HTTP codes, expiry on the sandbox's clock, refunds,
 * and the scenarios. Answers are read with the wire module a merchant's adapter uses.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { kitStatusOfKhalti, readKhaltiInitiate, readKhaltiLookup, readKhaltiRefund, readKhaltiReturn } from '../../../../src/providers/khalti/wire.js';
import { getPage, initiate, khaltiPost, lookup, submitPage } from './support.js';

const RETURN_ORDER = ['cart', 'pidx', 'txnId', 'amount', 'total_amount', 'status', 'mobile', 'tidx', 'purchase_order_id', 'purchase_order_name', 'transaction_id'];

describe('the Khalti emulation', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  test('initiate answers pidx, a payment_url on the sandbox, expires_at at +05:45 and expires_in 1800', async () => {
    const result = await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/initiate/', {
      return_url: 'http://127.0.0.1:9/r',
      website_url: 'http://127.0.0.1:9/',
      amount: '1000',
      purchase_order_id: 'o',
      purchase_order_name: 'n',
    });
    assert.equal(result.status, 200, result.text);
    assert.deepEqual(Object.keys(result.json), ['pidx', 'payment_url', 'expires_at', 'expires_in']);
    assert.match(String(result.json['expires_at']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+05:45$/);
    const read = readKhaltiInitiate(result.status, result.text);
    assert.match(read.pidx, /^[A-Za-z0-9]{22}$/);
    assert.equal(read.payment_url, `${sandbox.baseUrl}/khalti/pay/?pidx=${read.pidx}`);
    assert.equal(read.expires_in, 1800);
    assert.ok(Math.abs(read.expires_at - (sandbox.clock.now() + 1_800_000)) < 5000, 'expires_at is 30 minutes from the clock');
    const again = await initiate(sandbox.baseUrl, { purchase_order_id: 'o' });
    assert.notEqual(again.pidx, read.pidx, 'each initiate gets its own pidx, the same order id or not');
  });

  test('the pay page shows the order name and rupees; wrong credentials answer the page again with an error', async () => {
    const { pidx, body } = await initiate(sandbox.baseUrl);
    const page = await getPage(String(body['payment_url']));
    assert.equal(page.status, 200);
    assert.match(page.text, /Masala &#60;tea&#62;/);
    assert.match(page.text, /Rs 12\.50/);
    assert.match(page.text, /9800000000 to 9800000005, MPIN 1111, OTP 987654/);
    for (const wrong of [{ khalti_id: '9800000006' }, { mpin: '2222' }, { otp: '123456' }] as Array<Record<string, string>>) {
      const refused = await submitPage(sandbox.baseUrl, pidx, wrong);
      assert.equal(refused.status, 422, JSON.stringify(wrong));
      assert.match(refused.text, /role="alert">Wrong Khalti ID, MPIN or OTP/);
    }
    const still = await lookup(sandbox.baseUrl, pidx);
    assert.equal(still.status, 200);
    assert.equal(readKhaltiLookup(still.status, still.text).status, 'Initiated');
    assert.equal(kitStatusOfKhalti('Initiated'), 'BOOKED');
    assert.equal((await getPage(`${sandbox.baseUrl}/khalti/pay/?pidx=nope`)).status, 404);
  });

  test('paying sends the shopper to return_url with Khalti\'s parameters; lookup says Completed', async () => {
    const { pidx } = await initiate(sandbox.baseUrl);
    const paid = await submitPage(sandbox.baseUrl, pidx);
    assert.equal(paid.status, 302);
    const location = new URL(paid.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, 'http://127.0.0.1:9/khalti/return');
    assert.deepEqual([...location.searchParams.keys()], RETURN_ORDER);
    const hint = readKhaltiReturn(location.searchParams);
    assert.equal(hint.pidx, pidx);
    assert.equal(hint.status, 'Completed');
    assert.equal(hint.amount, 1250);
    assert.equal(hint.total_amount, 1250);
    assert.equal(hint.mobile, '98XXXXX004');
    assert.equal(hint.purchase_order_name, 'Masala <tea>');
    assert.equal(location.searchParams.get('txnId'), hint.transaction_id);
    assert.equal(location.searchParams.get('tidx'), hint.transaction_id);
    const looked = await lookup(sandbox.baseUrl, pidx);
    assert.equal(looked.status, 200);
    assert.deepEqual(looked.json, { pidx, total_amount: 1250, status: 'Completed', transaction_id: hint.transaction_id, fee: 0, refunded: false });
    const closed = await getPage(`${sandbox.baseUrl}/khalti/pay/?pidx=${pidx}`);
    assert.equal(closed.status, 409);
    assert.equal((await submitPage(sandbox.baseUrl, pidx)).status, 409, 'a paid pidx cannot be paid twice');
  });

  test('cancel: the return carries the cancel sample\'s empty parameters; lookup answers User canceled with HTTP 400', async () => {
    const { pidx } = await initiate(sandbox.baseUrl);
    const canceled = await submitPage(sandbox.baseUrl, pidx, { action: 'cancel', khalti_id: '', mpin: '', otp: '' });
    assert.equal(canceled.status, 302);
    const location = canceled.headers.get('location')!;
    assert.match(location, /&txnId=&/);
    assert.match(location, /&status=User%20canceled&mobile=&tidx=&/);
    assert.match(location, /&transaction_id=$/);
    const looked = await lookup(sandbox.baseUrl, pidx);
    assert.equal(looked.status, 400);
    const read = readKhaltiLookup(looked.status, looked.text);
    assert.deepEqual([read.status, read.transaction_id], ['User canceled', null]);
  });

  test('a link expires after expires_in by the sandbox\'s clock: lookup Expired with HTTP 400, the page 410', async () => {
    const { pidx } = await initiate(sandbox.baseUrl);
    await sandbox.clock.advance('1799s');
    assert.equal((await lookup(sandbox.baseUrl, pidx)).json['status'], 'Initiated');
    await sandbox.clock.advance('2s');
    const looked = await lookup(sandbox.baseUrl, pidx);
    assert.deepEqual([looked.status, looked.json['status']], [400, 'Expired']);
    assert.equal((await getPage(`${sandbox.baseUrl}/khalti/pay/?pidx=${pidx}`)).status, 410);
    assert.equal((await submitPage(sandbox.baseUrl, pidx)).status, 410);
  });

  test('refunds: partial then the rest (Partially Refunded, then Refunded); past the payment, twice, or unknown is refused', async () => {
    const { pidx } = await initiate(sandbox.baseUrl);
    await submitPage(sandbox.baseUrl, pidx);
    const txn = String((await lookup(sandbox.baseUrl, pidx)).json['transaction_id']);
    const refundPath = `/api/merchant-transaction/${txn}/refund/`;
    const tooMuch = await khaltiPost(sandbox.baseUrl, refundPath, { amount: 1251 });
    assert.equal(tooMuch.status, 400);
    assert.throws(() => readKhaltiRefund(tooMuch.status, tooMuch.text), /1250 paisa of this payment are left to refund/);
    const part = await khaltiPost(sandbox.baseUrl, refundPath, { amount: 400 });
    assert.deepEqual(readKhaltiRefund(part.status, part.text), { detail: 'Transaction refund successful.' });
    let looked = await lookup(sandbox.baseUrl, pidx);
    assert.deepEqual([looked.status, looked.json['status'], looked.json['refunded']], [200, 'Partially Refunded', false]);
    const rest = await khaltiPost(sandbox.baseUrl, refundPath, undefined);
    assert.equal(rest.status, 200, rest.text);
    looked = await lookup(sandbox.baseUrl, pidx);
    assert.deepEqual([looked.json['status'], looked.json['refunded']], ['Refunded', true]);
    assert.equal(kitStatusOfKhalti(String(looked.json['status'])), 'REVERTED');
    const twice = await khaltiPost(sandbox.baseUrl, refundPath, undefined);
    assert.equal(twice.status, 400);
    assert.match(String(twice.json['detail']), /this one is Refunded/);
    const unknown = await khaltiPost(sandbox.baseUrl, '/api/merchant-transaction/nope/refund/', undefined);
    assert.deepEqual([unknown.status, unknown.json['detail']], [404, 'Not found.']);
  });

  test('a full refund in one call: empty body, Refunded', async () => {
    const { pidx } = await initiate(sandbox.baseUrl);
    await submitPage(sandbox.baseUrl, pidx, { khalti_id: '9800000000' });
    const txn = String((await lookup(sandbox.baseUrl, pidx)).json['transaction_id']);
    const full = await khaltiPost(sandbox.baseUrl, `/api/merchant-transaction/${txn}/refund/`, {});
    assert.equal(full.status, 200);
    assert.equal((await lookup(sandbox.baseUrl, pidx)).json['status'], 'Refunded');
  });
});

describe('Khalti scenarios', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ khaltiExpiresIn: 600 });
  });
  after(() => sandbox.close());

  /** Pays a payment initiated with `over`/`headers`; the return's status, then lookups as the clock moves. */
  async function run(over: Record<string, unknown>, headers?: Record<string, string>, form: Record<string, string> = {}) {
    const { pidx, body } = await initiate(sandbox.baseUrl, over, headers);
    const paid = await submitPage(sandbox.baseUrl, pidx, form);
    assert.equal(paid.status, 302, paid.text);
    const returned = new URL(paid.headers.get('location')!).searchParams.get('status');
    return { pidx, body, returned, status: async () => (await lookup(sandbox.baseUrl, pidx)).json['status'] };
  }

  test('the expires_in option applies to every link', async () => {
    const { body } = await initiate(sandbox.baseUrl);
    assert.equal(body['expires_in'], 600);
    await assert.rejects(startSandbox({ khaltiExpiresIn: 0 }), /khaltiExpiresIn must be a whole number of seconds of at least 1; got 0/);
  });

  test('KHALTI-002 by magic amount (8002 paisa): the return and lookup say Pending', async () => {
    const payment = await run({ amount: 8002 });
    assert.equal(payment.returned, 'Pending');
    assert.equal(await payment.status(), 'Pending');
    await sandbox.clock.advance('1h');
    assert.equal(await payment.status(), 'Pending');
  });

  test('KHALTI-003 by header and KHALTI-004 by merchant_scenario: Pending, then Completed or Failed 2 min later', async () => {
    const paid = await run({}, { Authorization: 'Key sandbox-access-key', 'content-type': 'application/json', 'wallet-pay-scenario': 'khalti-003' });
    const failed = await run({ merchant_scenario: 'KHALTI-004' });
    assert.deepEqual([await paid.status(), await failed.status()], ['Pending', 'Pending']);
    await sandbox.clock.advance('119s');
    assert.deepEqual([await paid.status(), await failed.status()], ['Pending', 'Pending']);
    await sandbox.clock.advance('1s');
    assert.deepEqual([await paid.status(), await failed.status()], ['Completed', 'Failed']);
  });

  test('KHALTI-005: the pay ends as User canceled (HTTP 400); KHALTI-006: the link lives 60 s', async () => {
    const canceled = await run({ amount: 8005 });
    assert.equal(canceled.returned, 'User canceled');
    assert.equal((await lookup(sandbox.baseUrl, canceled.pidx)).status, 400);
    const { pidx, body } = await initiate(sandbox.baseUrl, { merchant_scenario: 'KHALTI-006' });
    assert.equal(body['expires_in'], 60);
    await sandbox.clock.advance('60s');
    const looked = await lookup(sandbox.baseUrl, pidx);
    assert.deepEqual([looked.status, looked.json['status']], [400, 'Expired']);
  });

  test('KHALTI-007 and KHALTI-008, picked on the page: refunded in full or in half 10 min after the pay', async () => {
    const full = await run({}, undefined, { scenario: 'KHALTI-007' });
    const half = await run({ amount: 2001 }, undefined, { scenario: 'KHALTI-008' });
    assert.deepEqual([full.returned, await full.status(), await half.status()], ['Completed', 'Completed', 'Completed']);
    await sandbox.clock.advance('10m');
    assert.deepEqual([await full.status(), await half.status()], ['Refunded', 'Partially Refunded']);
    const record = await getPage(`${sandbox.baseUrl}/sandbox/khalti/payments/${half.pidx}`);
    assert.equal(record.json['refunded_paisa'], 1000);
    assert.equal(kitStatusOfKhalti('Partially Refunded'), 'SUCCESS');
  });

  test('an unknown scenario is a validation error naming the source; the page refuses one too; the catalogue is listed', async () => {
    const byField = await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/initiate/', { return_url: 'http://127.0.0.1:9/r', website_url: 'http://127.0.0.1:9/', amount: 1000, purchase_order_id: 'o', purchase_order_name: 'n', merchant_scenario: 'WPS-001' });
    assert.equal(byField.status, 400);
    assert.deepEqual(byField.json, { merchant_scenario: ['No scenario "WPS-001"; known: KHALTI-001 to KHALTI-008.'], error_key: 'validation_error' });
    const { pidx } = await initiate(sandbox.baseUrl);
    const picked = await submitPage(sandbox.baseUrl, pidx, { scenario: 'KHALTI-999' });
    assert.equal(picked.status, 422);
    assert.match(picked.text, /Choose a scenario of the list/);
    const list = await getPage(`${sandbox.baseUrl}/sandbox/khalti/scenarios`);
    assert.equal((list.json as unknown as unknown[]).length, 8);
    assert.equal((list.json as unknown as Array<{ magic_amount_paisa: number }>)[0]!.magic_amount_paisa, 8001);
  });
});
