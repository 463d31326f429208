/**
 * The steps of the checker's ePay clauses, each against the real thing: the kit in its ePay mode
 * (eSewa's test product on the sandbox) as the proxy under test, on loopback, with a return page of
 * its own at `/return`. An ePay booking read and checked field by field (and refused when the proxy's
 * form is off), the form posted and paid on the sandbox's login page, returns signed as eSewa signs,
 * the shopper's visit, and `/order` and `/status` read.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { epayBooking, payEpay, postForm, signedReturn, writtenAmount, type EpayBooking } from '../../../../src/check/epay/steps.js';
import { orderIsPaid, statusOf, visit, type Steps } from '../../../../src/check/steps.js';
import { verifyMessage } from '../../../../src/protocol/signature.js';
import { EPAY_RESPONSE_SIGNED_FIELDS, EPAY_TEST_SECRET } from '../../../../src/sandbox/epay/rules.js';
import { AMOUNT, bookSpoiler, failureOf, PREFIX, startProviderKit, thankYou, type ProviderKit } from '../support.js';

describe('writtenAmount', () => {
  test('rupees as eSewa writes them: one decimal at least, two when there are paisa, a thousands comma when asked', () => {
    assert.equal(writtenAmount(1000, false), '1000.0');
    assert.equal(writtenAmount(1250.5, false), '1250.50');
    assert.equal(writtenAmount(2700, true), '2,700.0');
    assert.equal(writtenAmount(1234567.25, true), '1,234,567.25');
    assert.equal(writtenAmount(133, true), '133.0');
  });
});

describe('the ePay steps against the kit in its ePay mode', () => {
  /** What the kit's /book answers can be spoiled through, and the shop's return page. */
  const book = bookSpoiler();
  let kit: ProviderKit;
  let proxy: ProviderKit['proxy'];

  before(async () => {
    kit = await startProviderKit('epay', (inner) => {
      const spoilable = book.wrap(inner);
      return async (request) => (new URL(request.url).pathname === '/return' ? thankYou() : spoilable(request));
    });
    ({ proxy } = kit);
  });
  after(() => kit?.close());

  const steps = (): Steps => kit.steps();

  test("epayBooking reads the kit's booking: eSewa's eleven fields, the total, the booking id as uuid, a signature that verifies", async () => {
    const s = steps();
    for (const channel of ['web', 'app'] as const) {
      const booking = await epayBooking(s, channel);
      assert.equal(booking.fields['transaction_uuid'], booking.booking_id);
      assert.equal(Number(booking.fields['total_amount']), AMOUNT);
      assert.ok(String((booking.order as { id: string }).id).startsWith(PREFIX));
      assert.match(await postForm(s, booking), /^ES-/, 'the sandbox opened a login session for the form');
    }
  });

  test('epayBooking fails the clause, naming the rule, when the form is off', async () => {
    const cases: Array<[(data: Record<string, unknown>) => void, RegExp]> = [
      [(data) => void (data['wallet'] = 'khalti'), /answers channel "web" and wallet "esewa"/],
      [(data) => void ((data['web_payment'] as { url: string }).url = 'https://epay.example/form'), /must POST to eSewa's form/],
      [(data) => void delete (data['web_payment'] as { fields: Record<string, string> }).fields['tax_amount'], /must be eSewa's eleven fields/],
      [(data) => void ((data['web_payment'] as { fields: Record<string, string> }).fields['total_amount'] = '1250.49'), /total_amount must be the sum/],
      [(data) => void ((data['web_payment'] as { fields: Record<string, string> }).fields['transaction_uuid'] = 'other'), /transaction_uuid must be the booking_id/],
      [(data) => void ((data['web_payment'] as { fields: Record<string, string> }).fields['signature'] = 'forged'), /the form must be signed over total_amount,transaction_uuid,product_code/],
      [(data) => void ((data['web_payment'] as { fields: Record<string, string> }).fields['product_code'] = 'NOPE'), /product_code NOPE is unknown to eSewa's test service: use EPAYTEST/],
    ];
    for (const [change, message] of cases) {
      assert.match((await book.spoiled(change, () => failureOf(epayBooking(steps())))) ?? 'passed', message);
    }
  });

  test('payEpay pays on the login page in a scenario and answers where eSewa sends the shopper; the scenario is noted as driven', async () => {
    const s = steps();
    const paid = await epayBooking(s);
    const success = await payEpay(s, await postForm(s, paid), 'EPAY-001');
    assert.ok(success.startsWith(`${proxy.url}/return?booking_id=${encodeURIComponent(paid.booking_id)}?data=`), success);
    const failed = await epayBooking(s);
    const failure = await payEpay(s, await postForm(s, failed), 'EPAY-002');
    assert.equal(failure, failed.fields['failure_url']);
    assert.deepEqual(s.driven, ['EPAY-001', 'EPAY-002']);
    await assert.rejects(payEpay(s, 'ES-none', 'EPAY-001'), /sent no redirect \(HTTP 404\)/);
  });

  test('signedReturn signs as eSewa does: over the comma-less amount with the product code’s secret, or the key given', async () => {
    const s = steps();
    const booking: EpayBooking = await epayBooking(s);
    for (const amount of ['1250.50', '"1,250.50"']) {
      const url = await signedReturn(s, booking, { amount });
      const json = Buffer.from(url.slice(url.indexOf('?data=') + 6), 'base64').toString('utf8');
      assert.ok(json.includes(`"total_amount":${amount},`), json);
      const data = JSON.parse(json) as Record<string, string>;
      const message = `transaction_code=000CHK1,status=COMPLETE,total_amount=1250.50,transaction_uuid=${booking.booking_id},product_code=EPAYTEST,signed_field_names=${EPAY_RESPONSE_SIGNED_FIELDS}`;
      assert.ok(await verifyMessage(message, data['signature']!, EPAY_TEST_SECRET), amount);
    }
    const other = await signedReturn(s, booking, { amount: '1250.50', status: 'PENDING', key: 'another' });
    const data = JSON.parse(Buffer.from(other.slice(other.indexOf('?data=') + 6), 'base64').toString('utf8')) as Record<string, string>;
    assert.equal(data['status'], 'PENDING');
    assert.equal(await verifyMessage(`transaction_code=000CHK1,status=PENDING,total_amount=1250.50,transaction_uuid=${booking.booking_id},product_code=EPAYTEST,signed_field_names=${EPAY_RESPONSE_SIGNED_FIELDS}`, data['signature']!, EPAY_TEST_SECRET), false);
  });

  test("visit answers the return page's status; a return address off the proxy's origin fails the clause", async () => {
    const s = steps();
    assert.equal(await visit(s, `${proxy.url}/return?booking_id=x`), 200);
    assert.equal(await visit(s, `${proxy.url}/elsewhere`), 404);
    assert.match((await failureOf(visit(s, 'https://shop.example/return'))) ?? 'passed', /is not on --endpoint's origin/);
  });

  test('orderIsPaid and statusOf read /order and /status: open and unpaid, then paid at eSewa', async () => {
    const s = steps();
    const booking = await epayBooking(s);
    assert.equal(await orderIsPaid(s, booking.order), false);
    assert.equal(await statusOf(s, booking), 'BOOKED');
    await payEpay(s, await postForm(s, booking), 'EPAY-001');
    assert.equal(await statusOf(s, booking), 'SUCCESS');
    assert.equal(await orderIsPaid(s, booking.order), true);
    assert.match((await failureOf(orderIsPaid(s, { id: 'not-ours' }))) ?? 'passed', /^\/order: expected 200 IP-201/);
  });
});
