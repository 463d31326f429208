/**
 * The Khalti emulation's payments alone, on a clock the test moves: initiate (a new pidx each time, a
 * scenario by header, extra or magic amount), lookup's statuses and HTTP codes, the shopper's pay and
 * cancel with the published test credentials, expiry and a scenario's later status read lazily, and
 * refunds whole and in part. The HTTP face is tested in routes.test.ts, api.test.ts and flow.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KhaltiPayments, TEST_MPIN, TEST_OTP, maskKhaltiId, nepalTime } from '../../../../src/sandbox/khalti/payments.js';
import { initiateBody } from './support.js';

const MINUTE = 60_000;
const LOGIN = { khaltiId: '9800000004', mpin: TEST_MPIN, otp: TEST_OTP };

function paymentsAt(start = Date.UTC(2026, 0, 1)) {
  const clock = { now: start };
  const payments = new KhaltiPayments({ now: () => clock.now, expiresIn: 1800, payUrl: (pidx) => `http://pay.test/?pidx=${pidx}` });
  /** Initiates `over` and answers the pidx, failing unless it answered 200. */
  const initiate = (over: Record<string, unknown> = {}, header?: string): string => {
    const answer = payments.initiate(initiateBody(over), header);
    assert.equal(answer.http, 200, JSON.stringify(answer.body));
    return String(answer.body['pidx']);
  };
  const status = (pidx: string) => payments.lookup({ pidx }).body['status'];
  return { payments, clock, initiate, status };
}

describe('nepalTime and maskKhaltiId', () => {
  it('writes a time as Khalti does: Nepal time (+05:45) with microseconds', () => {
    assert.equal(nepalTime(Date.UTC(2026, 0, 1, 18, 30)), '2026-01-02T00:15:00.000000+05:45');
  });

  it('masks a Khalti ID but its first two and last three digits', () => {
    assert.equal(maskKhaltiId('9800000004'), '98XXXXX004');
    assert.equal(maskKhaltiId('12345'), '12345', 'too short to mask');
  });
});

describe('KhaltiPayments: initiate and lookup', () => {
  it('a valid body gets a new 22-character pidx each time, its pay URL and expiry, and lookup says Initiated', () => {
    const { payments, clock } = paymentsAt();
    const first = payments.initiate(initiateBody());
    const second = payments.initiate(initiateBody());
    assert.equal(first.http, 200);
    assert.match(String(first.body['pidx']), /^[A-Za-z0-9]{22}$/);
    assert.notEqual(first.body['pidx'], second.body['pidx'], 'Khalti keys nothing on purchase_order_id');
    assert.deepEqual(first.body, { pidx: first.body['pidx'], payment_url: `http://pay.test/?pidx=${first.body['pidx']}`, expires_at: nepalTime(clock.now + 1800_000), expires_in: 1800 });
    assert.deepEqual(payments.lookup({ pidx: first.body['pidx'] }), {
      http: 200,
      body: { pidx: first.body['pidx'], total_amount: 1250, status: 'Initiated', transaction_id: null, fee: 0, refunded: false },
    });
  });

  it('an invalid body is a validation_error naming its field, and stores nothing', () => {
    const { payments } = paymentsAt();
    const refused = payments.initiate(initiateBody({ amount: 999 }));
    assert.equal(refused.http, 400);
    assert.equal(refused.body['error_key'], 'validation_error');
    assert.ok(Array.isArray(refused.body['amount']), JSON.stringify(refused.body));
    assert.equal(refused.payment, undefined);
  });

  it('a scenario by header, by merchant_scenario or by magic amount; an unknown one is refused where it was named', () => {
    const { payments, initiate } = paymentsAt();
    assert.equal(payments.get(initiate({}, 'khalti-002'))?.scenario, 'KHALTI-002');
    assert.equal(payments.get(initiate({ merchant_scenario: 'KHALTI-005' }))?.scenario, 'KHALTI-005');
    assert.equal(payments.get(initiate({ amount: 8003 }))?.scenario, 'KHALTI-003');
    assert.equal(payments.get(initiate({ amount: 8003 }, 'KHALTI-001'))?.scenario, 'KHALTI-001', 'the header wins');
    assert.equal(payments.get(initiate({ amount: 9000 }))?.scenario, undefined);
    const byHeader = payments.initiate(initiateBody(), 'KHALTI-999');
    assert.equal(byHeader.http, 400);
    assert.match(String((byHeader.body['Wallet-Pay-Scenario'] as string[])[0]), /^No scenario "KHALTI-999"; known: KHALTI-001 to KHALTI-008\.$/);
    const byExtra = payments.initiate(initiateBody({ merchant_scenario: 'nope' }));
    assert.ok(Array.isArray(byExtra.body['merchant_scenario']));
  });

  it('lookup: a missing or blank pidx is a validation_error, an unknown one 404 Not found', () => {
    const { payments } = paymentsAt();
    assert.deepEqual(payments.lookup({}), { http: 400, body: { pidx: ['This field is required.'], error_key: 'validation_error' } });
    assert.deepEqual(payments.lookup(null), { http: 400, body: { pidx: ['This field is required.'], error_key: 'validation_error' } });
    for (const pidx of ['', '  ', 7]) assert.deepEqual(payments.lookup({ pidx }).body['pidx'], ['This field may not be blank.'], String(pidx));
    assert.deepEqual(payments.lookup({ pidx: 'unknown' }), { http: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });
  });
});

describe("KhaltiPayments: the shopper's pay and cancel", () => {
  it('pays with a test ID, MPIN and OTP: Completed, with a transaction id and the payer kept', () => {
    const { payments, initiate, status } = paymentsAt();
    const pidx = initiate();
    const paid = payments.pay(pidx, { ...LOGIN, khaltiId: ' 9800000004 ' });
    assert.ok(paid.ok);
    assert.equal(paid.payment.status, 'Completed');
    assert.equal(paid.payment.khalti_id, '9800000004');
    assert.match(paid.payment.transaction_id!, /^[A-Za-z0-9]{22}$/);
    assert.equal(status(pidx), 'Completed');
    assert.deepEqual(payments.pay(pidx, LOGIN), { ok: false, reason: 'closed', payment: payments.get(pidx) });
  });

  it('refuses an ID, MPIN or OTP other than the published ones, and an unknown scenario, leaving it Initiated', () => {
    const { payments, initiate, status } = paymentsAt();
    const pidx = initiate();
    for (const wrong of [{ khaltiId: '9800000006' }, { mpin: '1112' }, { otp: '000000' }]) {
      const refused = payments.pay(pidx, { ...LOGIN, ...wrong });
      assert.equal(refused.ok ? 'paid' : refused.reason, 'credentials', JSON.stringify(wrong));
    }
    const scenario = payments.pay(pidx, { ...LOGIN, scenario: 'KHALTI-999' });
    assert.equal(scenario.ok ? 'paid' : scenario.reason, 'scenario');
    assert.equal(status(pidx), 'Initiated');
    assert.deepEqual(payments.pay('unknown', LOGIN), { ok: false, reason: 'unknown' });
  });

  it('a scenario picked on the page decides: User canceled keeps no payer and looks up with HTTP 400', () => {
    const { payments, initiate } = paymentsAt();
    const pidx = initiate();
    const canceled = payments.pay(pidx, { ...LOGIN, scenario: 'khalti-005' });
    assert.ok(canceled.ok);
    assert.equal(canceled.payment.status, 'User canceled');
    assert.equal(canceled.payment.transaction_id, null);
    assert.equal(canceled.payment.khalti_id, null);
    assert.equal(payments.lookup({ pidx }).http, 400);
  });

  it('cancel on the page: User canceled, once; an unknown pidx is unknown', () => {
    const { payments, initiate, status } = paymentsAt();
    const pidx = initiate();
    assert.equal(payments.cancel(pidx).ok, true);
    assert.equal(status(pidx), 'User canceled');
    const again = payments.cancel(pidx);
    assert.equal(again.ok ? 'cancelled' : again.reason, 'closed');
    assert.deepEqual(payments.cancel('unknown'), { ok: false, reason: 'unknown' });
  });
});

describe('KhaltiPayments: time', () => {
  it('an unpaid link reads Expired (HTTP 400) once expires_at is reached, and can no longer be paid', () => {
    const { payments, clock, initiate, status } = paymentsAt();
    const pidx = initiate();
    clock.now += 1800_000 - 1;
    assert.equal(status(pidx), 'Initiated');
    clock.now += 1;
    assert.equal(payments.lookup({ pidx }).http, 400);
    assert.equal(status(pidx), 'Expired');
    const late = payments.pay(pidx, LOGIN);
    assert.equal(late.ok ? 'paid' : late.reason, 'closed');
  });

  it("a scenario's link lifetime (KHALTI-006: 60 s) and later status (KHALTI-003: Completed after 2 min) land on the clock", () => {
    const { payments, clock, initiate, status } = paymentsAt();
    const short = initiate({ amount: 8006 });
    assert.equal(payments.get(short)?.expires_in, 60);
    const later = initiate({ amount: 8003 });
    assert.ok(payments.pay(later, LOGIN).ok);
    assert.equal(status(later), 'Pending');
    clock.now += 2 * MINUTE - 1;
    assert.equal(status(later), 'Pending');
    assert.equal(status(short), 'Expired');
    clock.now += 1;
    assert.equal(status(later), 'Completed');
    assert.equal(payments.get(later)?.then, undefined, 'the later status lands once');
  });

  it('the dashboard refunds of KHALTI-007 (whole) and KHALTI-008 (half) land ten minutes after the pay', () => {
    const { payments, clock, initiate } = paymentsAt();
    const whole = initiate({ amount: 8007 });
    const half = initiate({ amount: 8008 });
    assert.ok(payments.pay(whole, LOGIN).ok && payments.pay(half, LOGIN).ok);
    clock.now += 10 * MINUTE;
    assert.deepEqual([payments.get(whole)?.status, payments.get(whole)?.refunded_paisa], ['Refunded', 8007]);
    assert.deepEqual(payments.lookup({ pidx: whole }).body['refunded'], true);
    assert.deepEqual([payments.get(half)?.status, payments.get(half)?.refunded_paisa], ['Partially Refunded', 4004]);
    assert.deepEqual(payments.lookup({ pidx: half }).body['refunded'], false, 'refunded is true only beside Refunded');
  });
});

describe('KhaltiPayments: refunds', () => {
  /** A Completed payment of `amount` paisa and its transaction id. */
  function completed(amount = 5000) {
    const at = paymentsAt();
    const pidx = at.initiate({ amount });
    const paid = at.payments.pay(pidx, LOGIN);
    assert.ok(paid.ok);
    return { ...at, pidx, transaction: paid.payment.transaction_id! };
  }

  it('in part (paisa, a number or a string), then what is left: Partially Refunded, then Refunded', () => {
    const { payments, transaction, status, pidx } = completed();
    assert.deepEqual(payments.refund(transaction, { amount: 1000 }), { http: 200, body: { detail: 'Transaction refund successful.' } });
    assert.equal(status(pidx), 'Partially Refunded');
    assert.equal(payments.refund(transaction, { amount: '1500' }).http, 200);
    assert.equal(payments.get(pidx)?.refunded_paisa, 2500);
    assert.equal(payments.refund(transaction, { amount: '' }).http, 200, 'an empty amount is the rest');
    assert.equal(status(pidx), 'Refunded');
    const again = payments.refund(transaction, {});
    assert.equal(again.http, 400);
    assert.equal(again.body['detail'], 'Only a Completed payment can be refunded; this one is Refunded.');
  });

  it('refuses an amount that is no positive integer, or more than is left; an unknown transaction is 404', () => {
    const { payments, transaction, pidx, status } = completed();
    for (const amount of [0, -1, 12.5, 'ten', true]) {
      assert.deepEqual(payments.refund(transaction, { amount }), { http: 400, body: { amount: ['A valid integer is required.'], error_key: 'validation_error' } }, String(amount));
    }
    assert.deepEqual(payments.refund(transaction, { amount: 5001 }).body['amount'], ['Only 5000 paisa of this payment are left to refund.']);
    assert.equal(status(pidx), 'Completed', 'nothing was refunded');
    assert.equal(payments.refund('unknown', {}).http, 404);
  });

  it("a refund made here replaces the scenario's later one", () => {
    const { payments, clock, initiate } = paymentsAt();
    const pidx = initiate({ amount: 8008 });
    const paid = payments.pay(pidx, LOGIN);
    assert.ok(paid.ok);
    assert.equal(payments.refund(paid.payment.transaction_id!, { amount: 1000 }).http, 200);
    clock.now += 60 * MINUTE;
    assert.deepEqual([payments.get(pidx)?.status, payments.get(pidx)?.refunded_paisa], ['Partially Refunded', 1000]);
  });
});
