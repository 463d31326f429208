/**
 * The checker's Khalti clauses, each judged on a proxy that keeps its rule and on one that breaks it.
 * The proxy is the kit in its Khalti mode (Khalti on the sandbox) on loopback, with a return page at
 * `/return` that looks the return's pidx up at Khalti and refuses one Khalti never initiated; the
 * broken ones open the page by POST, trust every return, call every order paid, or take Khalti's
 * 400 lookup of a cancelled payment for an outage.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KHALTI_BODIES, khaltiBook, khaltiForgedReturn, khaltiLookup400, khaltiReturnNotTrusted } from '../../../../src/check/khalti/clauses.js';
import { KHALTI_CLAUSES } from '../../../../src/check/khalti/clause-list.js';
import { khaltiHeaders } from '../../../../src/providers/khalti/wire.js';
import type { Sandbox } from '../../../../src/sandbox/index.js';
import { brokenProviderKit, thankYou } from '../support.js';

/** How the proxy's parts behave in a test. */
interface Breakage {
  /** The page is answered to open by POST. */
  postPage: boolean;
  /** The return page answers 200 whatever pidx it is given. */
  trustingReturn: boolean;
  /** `/order` answers every order paid. */
  alwaysPaid: boolean;
  /** `/status` answers IP-502 where the kit answers CANCELED. */
  cancelAsOutage: boolean;
}

const KEPT: Breakage = { postPage: false, trustingReturn: false, alwaysPaid: false, cancelAsOutage: false };

/** The shop's return page: Khalti's lookup of the pidx decides whether it is one Khalti knows. */
async function returnPage(url: URL, broken: Breakage, sandbox: Sandbox): Promise<Response> {
  const pidx = url.searchParams.get('pidx');
  if (pidx !== null && !broken.trustingReturn) {
    const lookup = await fetch(`${sandbox.baseUrl}/api/v2/epayment/lookup/`, { method: 'POST', headers: khaltiHeaders(sandbox.accessKey), body: JSON.stringify({ pidx }), signal: AbortSignal.timeout(5_000) });
    await lookup.body?.cancel();
    if (lookup.status === 404) return new Response('<p>Unknown payment</p>', { status: 404, headers: { 'content-type': 'text/html' } });
  }
  return thankYou();
}

describe('the Khalti clauses on the kit in its Khalti mode', () => {
  const verdict = brokenProviderKit('khalti', KEPT, (kit, broken, sandbox) => async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/return') return returnPage(url, broken, sandbox);
    if (url.pathname === '/pay/order' && broken.alwaysPaid) return Response.json({ code: 'IP-201', message: 'Order state fetched', data: { paid: true, status: 'SUCCESS' } });
    const answer = await kit(request);
    const spoilBook = url.pathname === '/pay/book' && broken.postPage;
    const spoilStatus = url.pathname === '/pay/status' && broken.cancelAsOutage;
    if (answer.status !== 200 || !(spoilBook || spoilStatus)) return answer;
    const body = (await answer.json()) as { data: { status?: string; web_payment?: { method: string } } };
    if (spoilStatus && body.data.status === 'CANCELED') return Response.json({ code: 'IP-502', error_message: 'Khalti answered HTTP 400.' }, { status: 502 });
    if (spoilBook && body.data.web_payment) body.data.web_payment.method = 'POST';
    return Response.json(body);
  });

  test('every Khalti clause passes on the kit with a return page that looks the pidx up', async () => {
    for (const clause of [khaltiBook, khaltiReturnNotTrusted, khaltiLookup400, khaltiForgedReturn]) {
      assert.equal(await verdict(clause), undefined, clause.name);
    }
  });

  test('khalti-book fails a page answered to open by POST', async () => {
    assert.match((await verdict(khaltiBook, { postPage: true })) ?? 'passed', /data\.web_payment must be Khalti's payment_url, opened by GET/);
  });

  test('khalti-return-not-trusted fails an /order that calls the order paid on a return saying Completed', async () => {
    assert.match((await verdict(khaltiReturnNotTrusted, { alwaysPaid: true })) ?? 'passed', /a return with status=Completed made the order paid while Khalti's lookup says Initiated/);
  });

  test("khalti-lookup-400-canceled fails a proxy that takes Khalti's 400 lookup for an outage", async () => {
    assert.match((await verdict(khaltiLookup400, { cancelAsOutage: true })) ?? 'passed', /\/status must answer 200 IP-201 CANCELED \(a 400 lookup is a cancellation, not an error\)/);
  });

  test('khalti-forged-return fails a return page that answers a pidx Khalti never initiated', async () => {
    assert.match((await verdict(khaltiForgedReturn, { trustingReturn: true })) ?? 'passed', /a return naming a pidx the proxy never initiated was answered HTTP 200, not refused with a 4xx/);
  });
});

test("the Khalti bodies are exactly its clauses', each its clause function", () => {
  assert.deepEqual(Object.keys(KHALTI_BODIES), KHALTI_CLAUSES.map((clause) => clause.id));
  assert.ok(KHALTI_CLAUSES.every((clause) => clause.provider === 'khalti'));
  assert.deepEqual(Object.values(KHALTI_BODIES), [khaltiBook, khaltiReturnNotTrusted, khaltiLookup400, khaltiForgedReturn]);
});
