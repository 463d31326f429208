/**
 * ePay v2's login page (src/sandbox/epay/page.ts) in English and Nepali: the amount, the merchant's
 * product code (ePay's form carries no product name), the buttons in the page's language,
 * `<html lang>`, the forms carrying the language on and the switch to the session's page in the
 * other; over real HTTP from the merchant's form POST.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { epayLoginPage } from '../../../../src/sandbox/epay/page.js';
import type { EpayTransaction } from '../../../../src/sandbox/epay/ledger.js';
import { EPAYTEST, LOGIN, epayForm, postEpay, postForm } from './support.js';

const LIMIT_MS = 5000;

/** A transaction as the ledger holds one, with only what the page reads. */
const transaction = { session_id: 'ES-a/b', product_code: 'TEASHOP', transaction_uuid: 'T-1001', total_paisa: 125_050, scenario: undefined } as unknown as EpayTransaction;

const buttons = (html: string) => [...html.matchAll(/<button class="([^"]+)" type="submit">([^<]+)<\/button>/g)].map(([, cls, text]) => `${cls}: ${text}`);

test('in Nepali: lang="ne", the amount and the merchant, Nepali labels and buttons, the forms carry ?lang=ne', () => {
  const html = epayLoginPage(transaction, undefined, 'ne');
  assert.match(html, /<html lang="ne">/);
  assert.match(html, /<title>इसेवा: भुक्तानी गर्न साइन इन गर्नुहोस्<\/title>/);
  assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>/);
  assert.match(html, /<dt>व्यापारी<\/dt><dd>TEASHOP<\/dd>/);
  assert.match(html, /<label>इसेवा आईडी <input name="esewa_id"/);
  assert.deepEqual(buttons(html), ['pay: भुक्तानी गर्नुहोस्', 'other fail: भुक्तानी असफल गराउनुहोस्', 'other cancel: रद्द गर्नुहोस्']);
  assert.deepEqual([...html.matchAll(/<form method="post" action="([^"]+)"/g)].map(([, action]) => action), [
    '/epay/session/ES-a%2Fb/pay?lang=ne',
    '/epay/session/ES-a%2Fb/fail?lang=ne',
    '/epay/session/ES-a%2Fb/cancel?lang=ne',
  ]);
  assert.match(html, /<a lang="en" hreflang="en" href="\/epay\/session\/ES-a%2Fb">English<\/a>/);
  assert.match(html, /data-sandbox-page="epay"/);
});

test('in English, as before: lang="en", the same labels and buttons, the forms without a language, a switch to Nepali', () => {
  const html = epayLoginPage(transaction, 'Wrong eSewa ID.');
  assert.match(html, /<html lang="en">/);
  assert.match(html, /<title>eSewa: sign in to pay<\/title>/);
  assert.match(html, /<dt>Merchant<\/dt><dd>TEASHOP<\/dd>/);
  assert.match(html, /<p class="error" role="alert">Wrong eSewa ID\.<\/p>/);
  assert.deepEqual(buttons(html), ['pay: Pay', 'other fail: Fail the payment', 'other cancel: Cancel']);
  assert.match(html, /<form method="post" action="\/epay\/session\/ES-a%2Fb\/pay">/);
  assert.match(html, /<a lang="ne" hreflang="ne" href="\/epay\/session\/ES-a%2Fb\?lang=ne">नेपाली<\/a>/);
  assert.match(html, /eSewa ID 9806800001, 9806800002, 9806800003, 9806800004, 9806800005; password Nepal@123; token 123456\./);
});

describe('over HTTP', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: 'TEASHOP' });
  });
  after(() => sandbox.close());

  const open = async () => {
    const page = await postEpay(sandbox.baseUrl, epayForm({ amount: '1250.5' }));
    assert.equal(page.status, 200, page.text);
    const session = /href="(\/epay\/session\/[^"?]+)\?lang=ne"/.exec(page.text)?.[1];
    assert.ok(session, 'the English page links its Nepali twin');
    return { page, session };
  };

  test("the merchant's form POST answers the English page with a switch to Nepali", async () => {
    const { page } = await open();
    assert.match(page.text, /<html lang="en">/);
    assert.match(page.text, /<div class="amount">NPR 1,250\.50<\/div>/);
    assert.match(page.text, new RegExp(`<dd>${EPAYTEST}</dd>`));
  });

  test("the switch's link opens the session's page in Nepali; its pay form stays in Nepali and pays", async () => {
    const { session } = await open();
    const ne = await fetch(`${sandbox.baseUrl}${session}?lang=ne`, { signal: AbortSignal.timeout(LIMIT_MS) });
    const html = await ne.text();
    assert.equal(ne.status, 200, html);
    assert.match(html, /<html lang="ne">/);
    assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>/);
    assert.match(html, /<button class="pay" type="submit">भुक्तानी गर्नुहोस्<\/button>/);
    const action = /<form method="post" action="([^"]+\/pay\?lang=ne)"/.exec(html)?.[1];
    assert.ok(action, html);
    const refused = await postForm(`${sandbox.baseUrl}${action}`, { ...LOGIN, token: '000000', scenario: '' });
    assert.equal(refused.status, 422);
    assert.match(refused.text, /<html lang="ne">/, 'a refused try answers the page in the language it was sent from');
    assert.match(refused.text, /<p class="error" role="alert">इसेवा आईडी, पासवर्ड वा टोकन मिलेन।/);
    const paid = await postForm(`${sandbox.baseUrl}${action}`, { ...LOGIN, scenario: '' });
    assert.equal(paid.status, 302, paid.text);
    assert.match(paid.response.headers.get('location') ?? '', /^http:\/\/127\.0\.0\.1:9\/esewa\/success\?data=/);
  });
});
