/**
 * The checker's ePay clauses, each judged on a proxy that keeps its rule and on one that breaks it.
 * The proxy is the kit in its ePay mode (eSewa's test product on the sandbox) on loopback, with a
 * return page at `/return` that verifies eSewa's signed `data` over its raw text; the broken ones
 * swap in a return page that trusts every return, one that verifies over `JSON.parse`'s numbers, a
 * form signed with another key, or an `/order` that calls every order paid.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { EPAY_BODIES, epayAmbiguous, epayBook, epayForgedReturn, epayFullRefund, epayRawText, epayStatusDecides } from '../../../../src/check/epay/clauses.js';
import { EPAY_CLAUSES } from '../../../../src/check/epay/clause-list.js';
import { verifyMessage } from '../../../../src/protocol/signature.js';
import { EPAY_RESPONSE_SIGNED_FIELDS, EPAY_TEST_SECRET } from '../../../../src/sandbox/epay/rules.js';
import { brokenProviderKit, thankYou } from '../support.js';

/** How the proxy's parts behave in a test. */
interface Breakage {
  /** `raw`: verifies over the raw text (eSewa's way); `parsed`: over JSON.parse's values; `trusting`: verifies nothing. */
  returnPage: 'raw' | 'parsed' | 'trusting';
  /** The book's form signed with another key. */
  forgedForm: boolean;
  /** `/order` answers every order paid. */
  alwaysPaid: boolean;
}

const KEPT: Breakage = { returnPage: 'raw', forgedForm: false, alwaysPaid: false };

/** Whether eSewa's `data` (base64 JSON) verifies, its `total_amount` read raw or through JSON.parse. */
async function verifies(data: string, read: 'raw' | 'parsed'): Promise<boolean> {
  const json = Buffer.from(data, 'base64').toString('utf8');
  const fields = JSON.parse(json) as Record<string, unknown>;
  const raw = /"total_amount":(?:"([^"]*)"|([^,}]*))/.exec(json);
  const total = read === 'raw' ? (raw?.[1] ?? raw?.[2] ?? '').replaceAll(',', '') : String(fields['total_amount']);
  const message = EPAY_RESPONSE_SIGNED_FIELDS.split(',').map((name) => `${name}=${name === 'total_amount' ? total : String(fields[name])}`).join(',');
  return verifyMessage(message, String(fields['signature']), EPAY_TEST_SECRET);
}

describe('the ePay clauses on the kit in its ePay mode', () => {
  const verdict = brokenProviderKit('epay', KEPT, (kit, broken) => async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/return') {
      const at = request.url.indexOf('?data=');
      if (at === -1 || broken.returnPage === 'trusting') return thankYou();
      const genuine = await verifies(request.url.slice(at + '?data='.length), broken.returnPage);
      return new Response(genuine ? '<p>Thank you</p>' : '<p>Refused</p>', { status: genuine ? 200 : 400, headers: { 'content-type': 'text/html' } });
    }
    if (url.pathname === '/pay/order' && broken.alwaysPaid) return Response.json({ code: 'IP-201', message: 'Order state fetched', data: { paid: true, status: 'SUCCESS' } });
    const answer = await kit(request);
    if (url.pathname !== '/pay/book' || answer.status !== 200 || !broken.forgedForm) return answer;
    const body = (await answer.json()) as { data: { web_payment: { fields: Record<string, string> } } };
    body.data.web_payment.fields['signature'] = 'AAAA' + body.data.web_payment.fields['signature']!.slice(4);
    return Response.json(body);
  });

  test('every ePay clause passes on the kit with a return page that verifies the raw text', async () => {
    for (const clause of [epayBook, epayForgedReturn, epayRawText, epayStatusDecides, epayAmbiguous, epayFullRefund]) {
      assert.equal(await verdict(clause), undefined, clause.name);
    }
  });

  test('epay-book fails a form signed with another key', async () => {
    assert.match((await verdict(epayBook, { forgedForm: true })) ?? 'passed', /the form must be signed over total_amount,transaction_uuid,product_code/);
  });

  test('epay-return-forged-refused fails a return page that trusts every return', async () => {
    assert.match((await verdict(epayForgedReturn, { returnPage: 'trusting' })) ?? 'passed', /^a return signed with another key was answered HTTP 200, not refused with a 4xx/);
  });

  test("epay-return-raw-text fails a return page that verifies over JSON.parse's numbers (1250.50 read as 1250.5)", async () => {
    assert.match((await verdict(epayRawText, { returnPage: 'parsed' })) ?? 'passed', /total_amount 1250\.50 \(a JSON number with a trailing zero\) was refused \(HTTP 400\): rebuild the message from the raw text/);
  });

  test('epay-status-decides, epay-ambiguous-open and epay-full-refund-reverted fail an /order that calls every order paid', async () => {
    assert.match((await verdict(epayStatusDecides, { alwaysPaid: true })) ?? 'passed', /a signed COMPLETE return made the order paid while eSewa's status check answers PENDING/);
    assert.match((await verdict(epayAmbiguous, { alwaysPaid: true })) ?? 'passed', /AMBIGUOUS \(halted\), and the order was fulfilled/);
    assert.match((await verdict(epayFullRefund, { alwaysPaid: true })) ?? 'passed', /refunded the payment in full \(FULL_REFUND\), and \/order still calls the order paid/);
  });
});

test("the ePay bodies are exactly its clauses', each its clause function", () => {
  assert.deepEqual(Object.keys(EPAY_BODIES), EPAY_CLAUSES.map((clause) => clause.id));
  assert.ok(EPAY_CLAUSES.every((clause) => clause.provider === 'epay'));
  assert.deepEqual(Object.values(EPAY_BODIES), [epayBook, epayForgedReturn, epayRawText, epayStatusDecides, epayAmbiguous, epayFullRefund]);
});
