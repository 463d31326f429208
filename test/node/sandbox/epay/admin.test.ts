/**
 * The ePay controls alone, mounted on loopback over a ledger the test fills directly: the list and one
 * transaction in rupees, the scenarios with their magic amounts, refunds in part and in full, set
 * statuses, each refusal with its code, the log lines, and the paths they decline. flow.test.ts runs
 * them inside the whole sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CODES, HTTP_STATUS_OF_CODE } from '../../../../src/protocol/contract.js';
import { createEpayAdminRoutes } from '../../../../src/sandbox/epay/admin.js';
import { EpayLedger } from '../../../../src/sandbox/epay/ledger.js';
import { EPAY_SCENARIOS } from '../../../../src/sandbox/epay/scenarios.js';
import { mount, NOT_MOUNTED, type Mounted } from '../../../support/mounted.js';
import { epayForm } from './support.js';

interface Answer {
  status: number;
  allow: string | null;
  body: { code: string; message?: string; error_message?: string; data?: Record<string, unknown> & Array<Record<string, unknown>> };
}

describe('ePay controls on loopback', () => {
  const ledger = new EpayLedger({ now: () => Date.UTC(2026, 0, 1), idleMs: 5 * 60_000 });
  const lines: string[] = [];
  let served: Mounted;
  before(async () => {
    served = await mount(createEpayAdminRoutes(ledger, (line) => void lines.push(line)));
  });
  after(async () => {
    await served.close();
    assert.deepEqual(served.errors, [], 'the controls threw');
  });

  /** A transaction of `total` rupees, paid when `paid`. */
  function transaction(uuid: string, total: string, paid = true): void {
    const posted = ledger.post(epayForm({ amount: total, uuid }), Math.round(Number(total) * 100));
    assert.ok(posted.ok);
    if (paid) assert.ok(ledger.pay(posted.transaction.session_id).ok);
  }

  async function ask(path: string, init: { method?: string; body?: string; type?: string } = {}): Promise<Answer> {
    const response = await fetch(`${served.baseUrl}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      ...(init.body === undefined ? {} : { body: init.body, headers: { 'content-type': init.type ?? 'application/json' } }),
    });
    return { status: response.status, allow: response.headers.get('allow'), body: (await response.json()) as Answer['body'] };
  }

  const post = (path: string, body: unknown) => ask(path, { body: JSON.stringify(body) });

  test('lists every transaction, and reads one, with its amounts in rupees beside its paisa', async () => {
    transaction('list-1', '133.5');
    const listed = await ask('/sandbox/epay/transactions');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.code, CODES.OK);
    const row = listed.body.data!.find((t) => t['transaction_uuid'] === 'list-1')!;
    assert.equal(row['total_amount'], '133.5');
    assert.equal(row['total_paisa'], 13_350);
    assert.equal(row['refunded_amount'], '0.0');
    const one = await ask('/sandbox/epay/transactions/EPAYTEST/list-1');
    assert.equal(one.body.data!['status'], 'COMPLETE');
    assert.equal(one.body.data!['total_amount'], '133.5');
    const unknown = await ask('/sandbox/epay/transactions/EPAYTEST/nothing');
    assert.equal(unknown.status, HTTP_STATUS_OF_CODE[CODES.UNKNOWN_BOOKING]);
    assert.equal(unknown.body.code, CODES.UNKNOWN_BOOKING);
    assert.equal(unknown.body.error_message, 'No ePay transaction EPAYTEST/nothing.');
  });

  test('the scenarios, each with its magic amount (9100 + its number)', async () => {
    const scenarios = await ask('/sandbox/epay/scenarios');
    assert.deepEqual(scenarios.body.data!.map((s) => [s['id'], s['magic_amount']]), EPAY_SCENARIOS.map((s, i) => [s.id, 9101 + i]));
  });

  test('refunds in rupees, in part (a number or a string) and then the rest, and logs each', async () => {
    transaction('refund-1', '100');
    const part = await post('/sandbox/epay/transactions/EPAYTEST/refund-1/refund', { amount: '25.50' });
    assert.equal(part.status, 200, JSON.stringify(part.body));
    assert.equal(part.body.data!['status'], 'PARTIAL_REFUND');
    assert.equal(part.body.data!['refunded_amount'], '25.5');
    assert.equal((await post('/sandbox/epay/transactions/EPAYTEST/refund-1/refund', { amount: 4.5 })).body.data!['refunded_amount'], '30.0');
    const rest = await post('/sandbox/epay/transactions/EPAYTEST/refund-1/refund', {});
    assert.equal(rest.body.data!['status'], 'FULL_REFUND');
    assert.deepEqual(lines.filter((line) => line.startsWith('epay EPAYTEST/refund-1')), [
      'epay EPAYTEST/refund-1 -> PARTIAL_REFUND (refunded 25.5)',
      'epay EPAYTEST/refund-1 -> PARTIAL_REFUND (refunded 30.0)',
      'epay EPAYTEST/refund-1 -> FULL_REFUND (refunded 100.0)',
    ]);
    const again = await post('/sandbox/epay/transactions/EPAYTEST/refund-1/refund', {});
    assert.equal(again.body.code, CODES.ALREADY_PROCESSED);
    assert.match(again.body.error_message!, /is FULL_REFUND: only a COMPLETE or PARTIAL_REFUND one can be refunded/);
  });

  test('a refund amount that is not a positive amount of at most two decimals within what is left is IP-422', async () => {
    transaction('refund-2', '100');
    for (const amount of ['abc', '0', '100.01', '1.234', -5, true, null]) {
      const refused = await post('/sandbox/epay/transactions/EPAYTEST/refund-2/refund', { amount });
      assert.equal(refused.body.code, CODES.INVALID_REQUEST, String(amount));
      assert.match(refused.body.error_message!, /^amount must be more than 0/);
    }
    assert.equal((await ask('/sandbox/epay/transactions/EPAYTEST/refund-2')).body.data!['status'], 'COMPLETE', 'nothing was refunded');
    const unknown = await post('/sandbox/epay/transactions/EPAYTEST/nothing/refund', {});
    assert.equal(unknown.body.code, CODES.UNKNOWN_BOOKING);
  });

  test('sets AMBIGUOUS or CANCELED and logs it; another status is IP-422, and a failed one cannot change', async () => {
    transaction('status-1', '100', false);
    const bad = await post('/sandbox/epay/transactions/EPAYTEST/status-1/status', { status: 'COMPLETE' });
    assert.equal(bad.body.code, CODES.INVALID_REQUEST);
    assert.equal(bad.body.error_message, 'status must be "AMBIGUOUS" or "CANCELED".');
    const set = await post('/sandbox/epay/transactions/EPAYTEST/status-1/status', { status: 'AMBIGUOUS' });
    assert.equal(set.body.message, 'ePay status set');
    assert.equal(set.body.data!['status'], 'AMBIGUOUS');
    assert.ok(lines.includes('epay EPAYTEST/status-1 -> AMBIGUOUS (set by the admin)'));
    const posted = ledger.post(epayForm({ uuid: 'status-2' }), 10_000);
    assert.ok(posted.ok && ledger.end(posted.transaction.session_id, 'fail').ok);
    const closed = await post('/sandbox/epay/transactions/EPAYTEST/status-2/status', { status: 'CANCELED' });
    assert.equal(closed.body.code, CODES.ALREADY_PROCESSED);
    assert.match(closed.body.error_message!, /is NOT_FOUND: it cannot change now/);
  });

  test('a change takes only POST with a JSON object', async () => {
    transaction('body-1', '100');
    const get = await ask('/sandbox/epay/transactions/EPAYTEST/body-1/refund');
    assert.equal(get.body.code, CODES.METHOD_NOT_ALLOWED);
    assert.equal(get.allow, 'POST');
    for (const body of ['[1]', '"text"', '{']) {
      const refused = await ask('/sandbox/epay/transactions/EPAYTEST/body-1/refund', { body });
      assert.equal(refused.body.code, CODES.INVALID_REQUEST, body);
      assert.equal(refused.body.error_message, 'The body must be a JSON object.');
    }
    const form = await ask('/sandbox/epay/transactions/EPAYTEST/body-1/refund', { body: 'amount=1', type: 'application/x-www-form-urlencoded' });
    assert.equal(form.body.code, CODES.UNSUPPORTED_MEDIA_TYPE);
    assert.equal((await ask('/sandbox/epay/transactions/EPAYTEST/body-1/refund', { body: '' })).body.data!['status'], 'FULL_REFUND', 'an empty body is an empty object: the whole refund');
  });

  test('a product code and uuid are read escaped; other paths are declined', async () => {
    transaction('with/slash', '100');
    assert.equal((await ask('/sandbox/epay/transactions/EPAYTEST/with%2Fslash')).body.data!['transaction_uuid'], 'with/slash');
    for (const path of ['/sandbox/epay', '/sandbox/epay/transactions/EPAYTEST', '/sandbox/epay/transactions/EPAYTEST/x/void', '/sandbox/bookings']) {
      const response = await fetch(`${served.baseUrl}${path}`);
      assert.equal(response.status, NOT_MOUNTED.status, path);
      assert.equal(await response.text(), NOT_MOUNTED.body, path);
    }
  });
});
