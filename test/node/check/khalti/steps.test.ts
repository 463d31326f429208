/**
 * The steps of the checker's Khalti clauses, each against the real thing: the kit in its Khalti mode
 * (Khalti on the sandbox, its access key as the secret key) as the proxy under test, on loopback. The
 * sandbox's record of a payment, a Khalti booking read (and refused, naming the rule, when it is off),
 * the pay page opened, paid and cancelled with Khalti's test login, and returns made as Khalti makes them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { khaltiBooking, khaltiPayment, khaltiReturn, openPage, paisaOf, payKhalti, type KhaltiBooking } from '../../../../src/check/khalti/steps.js';
import type { Steps } from '../../../../src/check/steps.js';
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { bookSpoiler, failureOf, startProviderKit, type ProviderKit } from '../support.js';

describe('paisaOf', () => {
  test('rupees to paisa exactly, where floating point would miss by one', () => {
    assert.equal(paisaOf(1250.5), 125_050);
    assert.equal(paisaOf(0.29), 29, '0.29 * 100 is 28.999…');
    assert.equal(paisaOf(10), 1000);
  });
});

describe('the Khalti steps against the kit in its Khalti mode', () => {
  /** What the kit's /book answers can be spoiled through. */
  const { wrap, spoiled } = bookSpoiler();
  let kit: ProviderKit;
  let sandbox: Sandbox;
  let proxy: ProviderKit['proxy'];

  before(async () => {
    kit = await startProviderKit('khalti', wrap);
    ({ sandbox, proxy } = kit);
  });
  after(() => kit?.close());

  const steps = (amount?: number): Steps => kit.steps(amount);

  test("khaltiBooking, strict: the kit's pidx, its page opened by GET, the amount in paisa and the return on the proxy's origin", async () => {
    const s = steps();
    for (const channel of ['web', 'app'] as const) {
      const booking = await khaltiBooking(s, channel, true);
      assert.equal(booking.paymentUrl, `${sandbox.baseUrl}/khalti/pay/?pidx=${encodeURIComponent(booking.booking_id)}`);
      assert.equal(booking.payment.pidx, booking.booking_id);
      assert.equal(booking.payment.amount, 125_050);
      assert.ok(booking.payment.return_url.startsWith(`${proxy.url}/`), booking.payment.return_url);
      await openPage(s, booking);
    }
  });

  test('khaltiBooking fails the clause, naming the rule, when the booking is off; the GET and the amount only when strict', async () => {
    const web = (data: Record<string, unknown>) => data['web_payment'] as { url: string; method: string };
    assert.match((await spoiled((d) => void (d['wallet'] = 'esewa'), () => failureOf(khaltiBooking(steps())))) ?? 'passed', /answers channel "web" and wallet "khalti"/);
    assert.match((await spoiled((d) => void (web(d).url = 'https://pay.example/'), () => failureOf(khaltiBooking(steps())))) ?? 'passed', /must be Khalti's payment_url, opened by GET/);
    const post = (d: Record<string, unknown>) => void (web(d).method = 'POST');
    assert.match((await spoiled(post, () => failureOf(khaltiBooking(steps(), 'web', true)))) ?? 'passed', /opened by GET/);
    assert.equal(await spoiled(post, () => failureOf(khaltiBooking(steps()))), undefined, 'another clause judges only its own rule');
    const unknown = (d: Record<string, unknown>) => {
      d['booking_id'] = 'CHKNoSuchPidx';
      web(d).url = `${sandbox.baseUrl}/khalti/pay/?pidx=CHKNoSuchPidx`;
    };
    assert.match((await spoiled(unknown, () => failureOf(khaltiBooking(steps())))) ?? 'passed', /the booking_id CHKNoSuchPidx is no pidx Khalti initiated/);
    assert.match((await failureOf(khaltiBooking(steps(1000), 'web', true))) ?? 'passed', /Khalti was asked for 125050 paisa, not the merchant's 1000 rupees \(100000 paisa\)/);
    assert.equal(await failureOf(khaltiBooking(steps(1000))), undefined);
  });

  test("khaltiPayment reads the sandbox's record, and undefined for a pidx it never initiated", async () => {
    const s = steps();
    const booking = await khaltiBooking(s);
    assert.equal((await khaltiPayment(s, booking.booking_id))?.status, 'Initiated');
    assert.equal(await khaltiPayment(s, 'never-initiated'), undefined);
  });

  test('openPage fails the clause when the page does not open', async () => {
    const s = steps();
    const booking = await khaltiBooking(s);
    const missing: KhaltiBooking = { ...booking, paymentUrl: `${sandbox.baseUrl}/khalti/pay/?pidx=nothing` };
    assert.match((await failureOf(openPage(s, missing))) ?? 'passed', /did not open by GET \(HTTP 404\)/);
  });

  test('payKhalti pays or cancels in a scenario and answers the return address; the scenario is noted as driven', async () => {
    const s = steps();
    const paid = await khaltiBooking(s);
    const back = new URL(await payKhalti(s, paid, 'KHALTI-001'));
    assert.equal(back.origin, proxy.url);
    assert.deepEqual([back.searchParams.get('pidx'), back.searchParams.get('status'), back.searchParams.get('mobile')], [paid.booking_id, 'Completed', '98XXXXX000']);
    const cancelled = await khaltiBooking(s);
    const gone = new URL(await payKhalti(s, cancelled, 'KHALTI-002', 'cancel'));
    assert.deepEqual([gone.searchParams.get('status'), gone.searchParams.get('transaction_id')], ['User canceled', '']);
    assert.deepEqual(s.driven, ['KHALTI-001', 'KHALTI-002']);
    assert.equal((await khaltiPayment(s, cancelled.booking_id))?.status, 'User canceled', 'a cancel picks no scenario');
    await assert.rejects(payKhalti(s, paid, 'KHALTI-001'), /sent no redirect \(HTTP 409\)/);
  });

  test("khaltiReturn writes Khalti's query after the return URL's own, the booking's values under the ones given", async () => {
    const booking = await khaltiBooking(steps());
    const url = new URL(khaltiReturn(booking, { status: 'User canceled', txnId: '' }));
    const own = new URL(booking.payment.return_url);
    assert.equal(`${url.origin}${url.pathname}`, `${own.origin}${own.pathname}`);
    for (const [name, value] of own.searchParams) assert.equal(url.searchParams.get(name), value, `the return URL's own ${name} is kept`);
    assert.equal(url.searchParams.get('pidx'), booking.booking_id);
    assert.equal(url.searchParams.get('amount'), '125050');
    assert.equal(url.searchParams.get('purchase_order_id'), booking.payment.purchase_order_id);
    assert.equal(url.searchParams.get('status'), 'User canceled');
    assert.equal(url.searchParams.get('txnId'), '');
    assert.equal(url.searchParams.get('transaction_id'), 'CHKForgedTxn0000000001');
  });
});
