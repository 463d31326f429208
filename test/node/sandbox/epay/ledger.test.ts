/**
 * The ePay ledger alone, on a clock the test moves: a form posted twice is one session, a uuid posted
 * with other content or finished is refused, the shopper's pay, fail and cancel, idle expiry and a
 * scenario's later refund read at lookup, the admin's refunds and status changes, and a snapshot
 * restored into a fresh ledger. The HTTP face is tested in routes.test.ts and flow.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EpayLedger, MAX_EPAY_TRANSACTIONS, type EpayResult, type EpayTransaction } from '../../../../src/sandbox/epay/ledger.js';

const MINUTE = 60_000;

/** A ledger on a clock of its own, counting its changes. */
function ledgerAt(start = 1_000_000) {
  const clock = { now: start };
  const changes = { count: 0 };
  const ledger = new EpayLedger({ now: () => clock.now, idleMs: 5 * MINUTE, onChange: () => void changes.count++ });
  return { ledger, clock, changes };
}

/** The eleven fields as the ledger keeps them (it is handed checked forms: the signature is not its business). */
function form(uuid: string, total = '100', product = 'EPAYTEST'): Record<string, string> {
  return { amount: total, tax_amount: '0', product_service_charge: '0', product_delivery_charge: '0', total_amount: total, transaction_uuid: uuid, product_code: product, success_url: 'http://127.0.0.1:9/ok', failure_url: 'http://127.0.0.1:9/no', signed_field_names: 'total_amount,transaction_uuid,product_code', signature: 'sig' };
}

function ok(result: EpayResult): EpayTransaction {
  assert.ok(result.ok, `expected ok, got ${JSON.stringify(result)}`);
  return result.transaction;
}

function refused(result: EpayResult, reason: string): EpayTransaction | undefined {
  assert.equal(result.ok, false, JSON.stringify(result));
  if (!result.ok) assert.equal(result.reason, reason);
  return result.ok ? undefined : result.transaction;
}

describe('EpayLedger: posting forms', () => {
  it('a new form is an open PENDING session; the same form again is the same session, touched', () => {
    const { ledger, clock, changes } = ledgerAt();
    const first = ok(ledger.post(form('u1'), 10_000));
    assert.equal(first.status, 'PENDING');
    assert.equal(first.open, true);
    assert.equal(first.total_paisa, 10_000);
    assert.equal(first.ref_id, null);
    assert.match(first.session_id, /^ES-[0-9a-f-]{36}$/);
    assert.deepEqual(first.history, [{ status: 'PENDING', at: clock.now, reason: 'form_posted' }]);
    assert.equal(changes.count, 1);
    clock.now += 1000;
    const again = ok(ledger.post({ ...form('u1'), signature: 'another' }, 10_000));
    assert.equal(again.session_id, first.session_id, 'a form posted again (a reload) reopens its session');
    assert.equal(again.touched_at, clock.now);
    assert.equal(ledger.list().length, 1);
  });

  it('the same uuid with other content is a conflict, and a finished one is closed', () => {
    const { ledger } = ledgerAt();
    const first = ok(ledger.post(form('u2'), 10_000));
    assert.equal(refused(ledger.post(form('u2', '200'), 20_000), 'conflict')?.session_id, first.session_id);
    ok(ledger.pay(first.session_id));
    refused(ledger.post(form('u2'), 10_000), 'closed');
    // The same uuid under another product code is another transaction.
    assert.notEqual(ok(ledger.post(form('u2', '100', 'SHOP01'), 10_000)).session_id, first.session_id);
  });

  it('hands out copies: changing one does not change the ledger', () => {
    const { ledger } = ledgerAt();
    const copy = ok(ledger.post(form('u3'), 10_000));
    copy.status = 'COMPLETE';
    copy.history.push({ status: 'COMPLETE', at: 0, reason: 'forged' });
    assert.equal(ledger.lookup('EPAYTEST', 'u3')?.status, 'PENDING');
    assert.equal(ledger.lookup('EPAYTEST', 'u3')?.history.length, 1);
    assert.equal(ledger.lookup('EPAYTEST', 'nothing'), undefined);
  });
});

describe("EpayLedger: the shopper's actions", () => {
  it('pay: COMPLETE with a seven-character code, closed, redirect to success', () => {
    const { ledger, clock } = ledgerAt();
    const { session_id } = ok(ledger.post(form('p1'), 10_000));
    const result = ledger.pay(session_id);
    assert.ok(result.ok);
    assert.equal(result.redirect, 'success');
    assert.equal(result.transaction.status, 'COMPLETE');
    assert.equal(result.transaction.open, false);
    assert.match(result.transaction.ref_id!, /^[0-9A-Z]{7}$/);
    assert.equal(result.transaction.paid_at, clock.now);
    refused(ledger.pay(session_id), 'closed');
    refused(ledger.pay('ES-unknown'), 'unknown');
  });

  it('fail reads NOT_FOUND and cancel CANCELED, both without a code and to the failure URL', () => {
    const { ledger } = ledgerAt();
    for (const [how, status] of [['fail', 'NOT_FOUND'], ['cancel', 'CANCELED']] as const) {
      const { session_id } = ok(ledger.post(form(`e-${how}`), 10_000));
      const result = ledger.end(session_id, how);
      assert.ok(result.ok);
      assert.equal(result.redirect, 'failure');
      assert.equal(result.transaction.status, status);
      assert.equal(result.transaction.ref_id, null);
      refused(ledger.end(session_id, how), how === 'fail' ? 'expired' : 'closed');
    }
  });

  it('a scenario picked on the page decides the outcome; an unknown one is refused and leaves the session open', () => {
    const { ledger } = ledgerAt();
    const { session_id } = ok(ledger.post(form('s1'), 10_000));
    refused(ledger.pay(session_id, 'EPAY-999'), 'unknown_scenario');
    assert.equal(ok(ledger.openSession(session_id)).open, true);
    const ambiguous = ledger.pay(session_id, 'epay-004');
    assert.ok(ambiguous.ok);
    assert.equal(ambiguous.redirect, 'failure');
    assert.equal(ambiguous.transaction.status, 'AMBIGUOUS');
    assert.match(ambiguous.transaction.ref_id!, /^[0-9A-Z]{7}$/, 'an ambiguous payment has a code');
  });

  it('a magic amount selects its scenario when the form is posted (9102 rupees: failed)', () => {
    const { ledger } = ledgerAt();
    const posted = ok(ledger.post(form('m1', '9102'), 910_200));
    assert.equal(posted.scenario, 'EPAY-002');
    assert.equal(ok(ledger.pay(posted.session_id)).status, 'NOT_FOUND');
    assert.equal(ok(ledger.post(form('m2', '9102.50'), 910_250)).scenario, undefined, 'paisa select nothing');
  });
});

describe('EpayLedger: time', () => {
  it('an idle PENDING session reads NOT_FOUND once its lifetime has passed, dated when it expired', () => {
    const { ledger, clock } = ledgerAt();
    const { session_id, created_at } = ok(ledger.post(form('x1'), 10_000));
    clock.now += 5 * MINUTE - 1;
    assert.equal(ledger.lookup('EPAYTEST', 'x1')?.status, 'PENDING');
    clock.now += 1;
    const expired = ledger.lookup('EPAYTEST', 'x1')!;
    assert.equal(expired.status, 'NOT_FOUND');
    assert.equal(expired.open, false);
    assert.deepEqual(expired.history.at(-1), { status: 'NOT_FOUND', at: created_at + 5 * MINUTE, reason: 'expired' });
    refused(ledger.pay(session_id), 'expired');
  });

  it('opening the session touches it, so its idle time starts again', () => {
    const { ledger, clock } = ledgerAt();
    const { session_id } = ok(ledger.post(form('x2'), 10_000));
    clock.now += 4 * MINUTE;
    ok(ledger.openSession(session_id));
    clock.now += 4 * MINUTE;
    assert.equal(ledger.lookup('EPAYTEST', 'x2')?.status, 'PENDING');
  });

  it('a held PENDING (EPAY-005) never expires; EPAY-006 expires after its own minute', () => {
    const { ledger, clock } = ledgerAt();
    const held = ok(ledger.post(form('h1'), 10_000));
    assert.equal(ok(ledger.pay(held.session_id, 'EPAY-005')).held, true);
    ok(ledger.post(form('h2', '9106'), 910_600));
    clock.now += MINUTE;
    assert.equal(ledger.lookup('EPAYTEST', 'h2')?.status, 'NOT_FOUND');
    clock.now += 24 * 60 * MINUTE;
    assert.equal(ledger.lookup('EPAYTEST', 'h1')?.status, 'PENDING');
  });

  it("a scenario's later refund comes ten minutes after the pay: the whole (EPAY-007) or half (EPAY-008)", () => {
    const { ledger, clock } = ledgerAt();
    const full = ok(ledger.post(form('r7', '9107'), 910_700));
    const half = ok(ledger.post(form('r8', '9108'), 910_800));
    const paidAt = clock.now;
    ok(ledger.pay(full.session_id));
    ok(ledger.pay(half.session_id));
    clock.now += 10 * MINUTE - 1;
    assert.equal(ledger.lookup('EPAYTEST', 'r7')?.status, 'COMPLETE');
    clock.now += 1;
    const refunded = ledger.lookup('EPAYTEST', 'r7')!;
    assert.equal(refunded.status, 'FULL_REFUND');
    assert.equal(refunded.refunded_paisa, 910_700);
    assert.deepEqual(refunded.history.at(-1), { status: 'FULL_REFUND', at: paidAt + 10 * MINUTE, reason: 'refunded (EPAY-007): 910700 paisa' });
    const partly = ledger.lookup('EPAYTEST', 'r8')!;
    assert.equal(partly.status, 'PARTIAL_REFUND');
    assert.equal(partly.refunded_paisa, 455_400);
    clock.now += 60 * MINUTE;
    assert.equal(ledger.lookup('EPAYTEST', 'r8')?.refunded_paisa, 455_400, 'the refund comes once');
  });
});

describe("EpayLedger: the admin's changes", () => {
  it('refunds in part, then the rest; past that nothing is refundable', () => {
    const { ledger } = ledgerAt();
    ok(ledger.pay(ok(ledger.post(form('a1'), 10_000)).session_id));
    for (const paisa of [0, -1, 1.5, 10_001]) refused(ledger.refund('EPAYTEST', 'a1', paisa), 'bad_amount');
    const part = ok(ledger.refund('EPAYTEST', 'a1', 2_500));
    assert.equal(part.status, 'PARTIAL_REFUND');
    assert.equal(part.refunded_paisa, 2_500);
    refused(ledger.refund('EPAYTEST', 'a1', 7_501), 'bad_amount');
    const rest = ok(ledger.refund('EPAYTEST', 'a1'));
    assert.equal(rest.status, 'FULL_REFUND');
    assert.equal(rest.refunded_paisa, 10_000);
    refused(ledger.refund('EPAYTEST', 'a1'), 'not_refundable');
    refused(ledger.refund('EPAYTEST', 'nothing'), 'unknown');
  });

  it('a PENDING transaction is not refundable', () => {
    const { ledger } = ledgerAt();
    ok(ledger.post(form('a2'), 10_000));
    assert.equal(refused(ledger.refund('EPAYTEST', 'a2'), 'not_refundable')?.status, 'PENDING');
  });

  it('sets AMBIGUOUS or CANCELED, closing the session and giving it a code; never another status, nor on a NOT_FOUND', () => {
    const { ledger } = ledgerAt();
    const open = ok(ledger.post(form('a3'), 10_000));
    refused(ledger.setStatus('EPAYTEST', 'a3', 'COMPLETE'), 'bad_status');
    const set = ok(ledger.setStatus('EPAYTEST', 'a3', 'CANCELED'));
    assert.equal(set.status, 'CANCELED');
    assert.equal(set.open, false);
    assert.match(set.ref_id!, /^[0-9A-Z]{7}$/);
    assert.equal(set.history.at(-1)?.reason, 'set_by_admin');
    refused(ledger.openSession(open.session_id), 'closed');
    const failed = ok(ledger.post(form('a4'), 10_000));
    ok(ledger.end(failed.session_id, 'fail'));
    refused(ledger.setStatus('EPAYTEST', 'a4', 'AMBIGUOUS'), 'closed');
    refused(ledger.setStatus('EPAYTEST', 'nothing', 'AMBIGUOUS'), 'unknown');
  });
});

describe('EpayLedger: keeping', () => {
  it('a snapshot restored into a fresh ledger answers the same, sessions included', () => {
    const { ledger } = ledgerAt();
    const paid = ok(ledger.post(form('k1'), 10_000));
    ok(ledger.pay(paid.session_id));
    const open = ok(ledger.post(form('k2'), 20_000));
    const fresh = ledgerAt().ledger;
    fresh.restore(ledger.snapshot());
    assert.deepEqual(fresh.list(), ledger.list());
    assert.equal(ok(fresh.openSession(open.session_id)).transaction_uuid, 'k2');
    refused(fresh.pay(paid.session_id), 'closed');
  });

  it(`past ${MAX_EPAY_TRANSACTIONS} transactions, a new one drops the oldest finished one, never an open one`, () => {
    const { ledger } = ledgerAt();
    const first = ok(ledger.post(form('keep-0'), 10_000));
    ok(ledger.pay(ok(ledger.post(form('done-1'), 10_000)).session_id));
    for (let i = 2; i < MAX_EPAY_TRANSACTIONS; i++) ok(ledger.post(form(`open-${i}`), 10_000));
    assert.equal(ledger.list().length, MAX_EPAY_TRANSACTIONS);
    ok(ledger.post(form('one-more'), 10_000));
    assert.equal(ledger.list().length, MAX_EPAY_TRANSACTIONS);
    assert.equal(ledger.lookup('EPAYTEST', 'done-1'), undefined);
    assert.equal(ok(ledger.openSession(first.session_id)).transaction_uuid, 'keep-0');
  });
});
