/**
 * ePay v2 through the sandbox end to end: the login page's own forms, the signed success redirect
 * (amounts as eSewa writes them, `?data=` glued onto a query), the failure redirect, and every status
 * of the status check: expiry on the sandbox's clock, the admin's refunds and changes, the scenarios.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { control } from '../support.js';
import { EPAYTEST, LOGIN, PUBLISHED_KEY, actionsOf, dataOf, epayForm, epayStatus, hmac, payThrough, postEpay, postForm } from './support.js';

const RESPONSE_FIELDS = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';

describe('ePay v2 pay and status', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: ['SHOP01'], accessKey: 'shop-key' });
  });
  after(() => sandbox.close());

  test('a full pay through the login page: 302 to success_url with data that verifies with the published key over the comma-less amount', async () => {
    for (const [amount, written, signed] of [
      ['133', '133.0', '133.0'],
      ['2700', '2,700.0', '2700.0'],
    ] as const) {
      const uuid = `pay-${amount}-${Date.now()}`;
      const answer = await payThrough(sandbox.baseUrl, epayForm({ amount, uuid }));
      assert.equal(answer.status, 302, answer.text);
      const location = answer.response.headers.get('location')!;
      assert.ok(location.startsWith('http://127.0.0.1:9/esewa/success?data='), location);
      const { raw, data } = dataOf(location);
      assert.deepEqual(Object.keys(data), [...RESPONSE_FIELDS.split(','), 'signature']);
      assert.equal(data['total_amount'], written, 'a string as eSewa writes it');
      assert.equal(data['status'], 'COMPLETE');
      assert.equal(data['signed_field_names'], RESPONSE_FIELDS);
      assert.match(raw, new RegExp(`"total_amount":"${written}"`));
      const message = (total: string) =>
        `transaction_code=${data['transaction_code']},status=COMPLETE,total_amount=${total},transaction_uuid=${uuid},product_code=EPAYTEST,signed_field_names=${RESPONSE_FIELDS}`;
      assert.equal(data['signature'], hmac(message(signed), PUBLISHED_KEY));
      if (written.includes(',')) assert.notEqual(data['signature'], hmac(message(written), PUBLISHED_KEY), 'not over the comma');
      const status = await epayStatus(sandbox.baseUrl, EPAYTEST, amount, uuid);
      assert.equal(status.status, 200);
      assert.equal(status.raw, `{"product_code":"EPAYTEST","transaction_uuid":"${uuid}","total_amount":${signed},"status":"COMPLETE","ref_id":"${data['transaction_code']}"}`);
      const commaQuery = await epayStatus(sandbox.baseUrl, EPAYTEST, written, uuid);
      assert.equal(commaQuery.body['status'], 'COMPLETE', 'an amount sent back with its comma still matches');
    }
  });

  test('the success data is appended with ?data= even onto a URL that has a query', async () => {
    const answer = await payThrough(sandbox.baseUrl, epayForm({ successUrl: 'http://127.0.0.1:9/ok?x=1' }));
    const location = answer.response.headers.get('location')!;
    assert.ok(location.startsWith('http://127.0.0.1:9/ok?x=1?data='), location);
    assert.equal(dataOf(location).data['status'], 'COMPLETE');
  });

  test('a product code of the sandbox signs with its access key', async () => {
    const uuid = `own-${Date.now()}`;
    const answer = await payThrough(sandbox.baseUrl, epayForm({ product: 'SHOP01', key: 'shop-key', amount: '250', uuid }));
    const { data } = dataOf(answer.response.headers.get('location')!);
    assert.equal(data['signature'], hmac(`transaction_code=${data['transaction_code']},status=COMPLETE,total_amount=250.0,transaction_uuid=${uuid},product_code=SHOP01,signed_field_names=${RESPONSE_FIELDS}`, 'shop-key'));
  });

  test('a wrong eSewa ID, password or token answers the page again with the error; the right login then pays', async () => {
    const page = await postEpay(sandbox.baseUrl, epayForm());
    const pay = `${sandbox.baseUrl}${actionsOf(page.text)['pay']}`;
    for (const wrong of [{ esewa_id: '9806800009' }, { password: 'nepal@123' }, { token: '654321' }]) {
      const again = await postForm(pay, { ...LOGIN, ...wrong });
      assert.equal(again.status, 422);
      assert.match(again.text, /role="alert">Wrong eSewa ID, password or token/);
      assert.match(again.text, /action="\/epay\/session\/ES-[^"]+\/pay"/, 'the login form is there again');
    }
    const picked = await postForm(pay, { ...LOGIN, scenario: 'EPAY-999' });
    assert.equal(picked.status, 422);
    assert.match(picked.text, /Choose a scenario of the list/);
    assert.equal((await postForm(pay, LOGIN)).status, 302);
    const closed = await postForm(pay, LOGIN);
    assert.equal(closed.status, 409, 'a finished session is not paid twice');
    assert.equal((await postForm(`${sandbox.baseUrl}/epay/session/ES-nothing/pay`, LOGIN)).status, 404);
  });

  test('fail and cancel go to failure_url as it is; the status reads NOT_FOUND and CANCELED', async () => {
    for (const [action, expected] of [
      ['fail', 'NOT_FOUND'],
      ['cancel', 'CANCELED'],
    ] as const) {
      const uuid = `${action}-${Date.now()}`;
      const page = await postEpay(sandbox.baseUrl, epayForm({ uuid, failureUrl: 'http://127.0.0.1:9/esewa/failure?order=7' }));
      assert.equal(page.status, 200);
      const answer = await postForm(`${sandbox.baseUrl}${actionsOf(page.text)[action]}`, {});
      assert.equal(answer.status, 302);
      assert.equal(answer.response.headers.get('location'), 'http://127.0.0.1:9/esewa/failure?order=7');
      const status = await epayStatus(sandbox.baseUrl, EPAYTEST, '100', uuid);
      assert.deepEqual(status.body, { product_code: EPAYTEST, transaction_uuid: uuid, total_amount: 100, status: expected, ref_id: null });
    }
  });

  test('PENDING once posted; NOT_FOUND never posted, for another amount or product code, and after 5 idle minutes on the clock', async () => {
    const uuid = `pending-${Date.now()}`;
    assert.equal((await postEpay(sandbox.baseUrl, epayForm({ uuid }))).status, 200);
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '100', uuid)).body['status'], 'PENDING');
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '100.0', uuid)).body['ref_id'], null);
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '101', uuid)).body['status'], 'NOT_FOUND');
    assert.equal((await epayStatus(sandbox.baseUrl, 'SHOP01', '100', uuid)).body['status'], 'NOT_FOUND');
    const never = await epayStatus(sandbox.baseUrl, EPAYTEST, '100', 'never-posted');
    assert.equal(never.raw, '{"product_code":"EPAYTEST","transaction_uuid":"never-posted","total_amount":100.0,"status":"NOT_FOUND","ref_id":null}');
    await sandbox.clock.advance('4m');
    assert.equal((await postEpay(sandbox.baseUrl, epayForm({ uuid }))).status, 200, 'posting it again uses the session: idle time starts again');
    await sandbox.clock.advance('4m');
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '100', uuid)).body['status'], 'PENDING');
    await sandbox.clock.advance('61s');
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '100', uuid)).body['status'], 'NOT_FOUND');
    const page = await postEpay(sandbox.baseUrl, epayForm({ uuid }));
    assert.equal(page.status, 400, 'an expired uuid is finished');
    const missing = await fetch(`${sandbox.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&transaction_uuid=${uuid}`);
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { error_message: string }).error_message, /total_amount/);
  });

  test('admin: full and partial refunds, AMBIGUOUS and CANCELED, and the refusals', async () => {
    const paid = async (amount: string) => {
      const uuid = `adm-${amount}-${crypto.randomUUID()}`;
      assert.equal((await payThrough(sandbox.baseUrl, epayForm({ amount, uuid }))).status, 302);
      return uuid;
    };
    const path = (uuid: string, action = '') => `/sandbox/epay/transactions/${EPAYTEST}/${uuid}${action}`;
    const full = await paid('500');
    assert.equal((await control(sandbox.baseUrl, path(full, '/refund'), {})).status, 200);
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '500', full)).body['status'], 'FULL_REFUND');
    const again = await control(sandbox.baseUrl, path(full, '/refund'), {});
    assert.equal(again.status, 409);

    const part = await paid('500');
    const first = await control<{ status: string; refunded_amount: string }>(sandbox.baseUrl, path(part, '/refund'), { amount: 120.5 });
    assert.deepEqual([first.status, first.data.status, first.data.refunded_amount], [200, 'PARTIAL_REFUND', '120.5']);
    const status = await epayStatus(sandbox.baseUrl, EPAYTEST, '500', part);
    assert.equal(status.body['status'], 'PARTIAL_REFUND');
    assert.equal(status.body['total_amount'], 500);
    assert.equal((await control(sandbox.baseUrl, path(part, '/refund'), { amount: '400' })).status, 422, 'more than is left');
    const rest = await control<{ status: string; refunded_amount: string }>(sandbox.baseUrl, path(part, '/refund'), { amount: '379.50' });
    assert.deepEqual([rest.data.status, rest.data.refunded_amount], ['FULL_REFUND', '500.0']);

    const halted = await paid('300');
    assert.equal((await control(sandbox.baseUrl, path(halted, '/status'), { status: 'AMBIGUOUS' })).status, 200);
    assert.equal((await epayStatus(sandbox.baseUrl, EPAYTEST, '300', halted)).body['status'], 'AMBIGUOUS');
    assert.equal((await control(sandbox.baseUrl, path(halted, '/status'), { status: 'CANCELED' })).status, 200);
    const reversed = await epayStatus(sandbox.baseUrl, EPAYTEST, '300', halted);
    assert.equal(reversed.body['status'], 'CANCELED');
    assert.equal(typeof reversed.body['ref_id'], 'string');
    assert.equal((await control(sandbox.baseUrl, path(halted, '/status'), { status: 'COMPLETE' })).status, 422);

    const open = `adm-open-${Date.now()}`;
    await postEpay(sandbox.baseUrl, epayForm({ uuid: open }));
    assert.equal((await control(sandbox.baseUrl, path(open, '/refund'), {})).status, 409, 'an unpaid one cannot be refunded');
    assert.equal((await control(sandbox.baseUrl, path('nothing', '/refund'), {})).status, 404);
    const listed = await control<Array<{ transaction_uuid: string }>>(sandbox.baseUrl, '/sandbox/epay/transactions');
    assert.ok(listed.data.some((t) => t.transaction_uuid === part));
    const scenarios = await control<Array<{ id: string; magic_amount: number }>>(sandbox.baseUrl, '/sandbox/epay/scenarios');
    assert.deepEqual(scenarios.data.map((s) => `${s.id}=${s.magic_amount}`).slice(0, 2), ['EPAY-001=9101', 'EPAY-002=9102']);
  });

  test('scenarios by magic amount and by the picker: ambiguous, pending, expired, refunded in full and in part', async () => {
    const run = async (amount: string, picked = '') => {
      const uuid = `sc-${amount}-${crypto.randomUUID()}`;
      const answer = await payThrough(sandbox.baseUrl, epayForm({ amount, uuid }), { scenario: picked });
      return { uuid, answer, status: async () => (await epayStatus(sandbox.baseUrl, EPAYTEST, amount, uuid)).body };
    };
    const paid = await run('9101');
    assert.ok(paid.answer.response.headers.get('location')!.includes('?data='));
    const failed = await run('9102');
    assert.equal(failed.answer.response.headers.get('location'), 'http://127.0.0.1:9/esewa/failure');
    assert.equal((await failed.status())['status'], 'NOT_FOUND');
    assert.equal((await (await run('9103')).status())['status'], 'CANCELED');
    const ambiguous = await (await run('9104')).status();
    assert.equal(ambiguous['status'], 'AMBIGUOUS');
    assert.equal(typeof ambiguous['ref_id'], 'string');
    const picked = await run('100', 'EPAY-004');
    assert.equal((await picked.status())['status'], 'AMBIGUOUS', 'the picker overrides');
    const pending = await run('9105');
    const expired = await run('9106');
    const full = await run('9107');
    const part = await run('9108');
    assert.equal((await expired.status())['status'], 'PENDING');
    assert.equal((await full.status())['status'], 'COMPLETE');
    await sandbox.clock.advance('61s');
    assert.equal((await expired.status())['status'], 'NOT_FOUND');
    await sandbox.clock.advance('10m');
    assert.equal((await pending.status())['status'], 'PENDING', 'EPAY-005 stays pending for ever');
    assert.equal((await full.status())['status'], 'FULL_REFUND');
    assert.equal((await part.status())['status'], 'PARTIAL_REFUND');
    const record = await control<{ refunded_amount: string }>(sandbox.baseUrl, `/sandbox/epay/transactions/${EPAYTEST}/${part.uuid}`);
    assert.equal(record.data.refunded_amount, '4554.0');
  });
});

describe('ePay v2 with chaos, a set lifetime and a state file', () => {
  test("chaos errors on the status check answer eSewa's unavailable body", async () => {
    const sandbox = await startSandbox({ chaos: { errors: 1, seed: 3 } });
    try {
      const status = await fetch(`${sandbox.baseUrl}/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=100&transaction_uuid=x`);
      assert.equal(status.status, 503);
      assert.deepEqual(await status.json(), { error_message: 'Service is currently unavailable', code: 0 });
    } finally {
      await sandbox.close();
    }
  });

  test('a set idle lifetime, and transactions kept across a restart', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'epay-state-'));
    const stateFile = join(dir, 'sandbox.json');
    await assert.rejects(startSandbox({ epaySessionIdleMs: 0 }), /epaySessionIdleMs must be a positive number/);
    const first = await startSandbox({ stateFile, port: 0, linksPort: 0, epaySessionIdleMs: 30_000 });
    const paid = `kept-${Date.now()}`;
    const open = `open-${Date.now()}`;
    try {
      assert.equal((await payThrough(first.baseUrl, epayForm({ uuid: paid }))).status, 302);
      assert.equal((await postEpay(first.baseUrl, epayForm({ uuid: open }))).status, 200);
    } finally {
      await first.close();
    }
    const second = await startSandbox({ stateFile, port: 0, linksPort: 0, epaySessionIdleMs: 30_000 });
    try {
      assert.equal((await epayStatus(second.baseUrl, EPAYTEST, '100', paid)).body['status'], 'COMPLETE');
      assert.equal((await epayStatus(second.baseUrl, EPAYTEST, '100', open)).body['status'], 'PENDING');
      await second.clock.advance('31s');
      assert.equal((await epayStatus(second.baseUrl, EPAYTEST, '100', open)).body['status'], 'NOT_FOUND');
    } finally {
      await second.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
