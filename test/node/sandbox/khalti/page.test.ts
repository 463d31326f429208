/**
 * Khalti's pay page (src/sandbox/khalti/page.ts) in English and Nepali: the order's name and amount,
 * the buttons in the page's language, `<html lang>`, the form carrying the language on and the switch
 * to `payment_url` in the other; over real HTTP from an initiate.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { khaltiPayPage } from '../../../../src/sandbox/khalti/page.js';
import type { KhaltiPayment } from '../../../../src/sandbox/khalti/payments.js';
import { LIMIT_MS, initiate } from './support.js';

/** A payment as the emulation holds one, with only what the page reads. */
const payment = { pidx: 'P&1', purchase_order_name: 'Masala <tea>', amount: 125_050, scenario: undefined } as unknown as KhaltiPayment;

const buttons = (html: string) => [...html.matchAll(/<button type="submit" name="action" value="(\w+)">([^<]+)<\/button>/g)].map(([, value, text]) => `${value}: ${text}`);

test('in Nepali: lang="ne", the order name and amount, Nepali labels and buttons, the form carries ?lang=ne', () => {
  const html = khaltiPayPage(payment, '/khalti/pay/', undefined, 'ne');
  assert.match(html, /<html lang="ne">/);
  assert.match(html, /<h1>खल्तीबाट भुक्तानी गर्नुहोस्<\/h1>\n<p>Masala &#60;tea&#62;<\/p>\n<div class="amount">Rs 1,250\.50<\/div>/);
  assert.match(html, /<label>खल्ती आईडी <input name="khalti_id"/);
  assert.match(html, /खल्ती आईडी 9800000000 देखि 9800000005, MPIN 1111, OTP 987654/);
  assert.deepEqual(buttons(html), ['pay: भुक्तानी गर्नुहोस्', 'cancel: रद्द गर्नुहोस्']);
  assert.match(html, /<form method="post" action="\/khalti\/pay\/\?lang=ne">/);
  assert.match(html, /<a lang="en" hreflang="en" href="\/khalti\/pay\/\?pidx=P%261">English<\/a>/);
  assert.match(html, /data-sandbox-page="khalti"/);
});

test('in English, as before: lang="en", the same buttons, the form without a language, a switch to Nepali', () => {
  const html = khaltiPayPage(payment, '/khalti/pay/', 'Wrong Khalti ID.');
  assert.match(html, /<html lang="en">/);
  assert.match(html, /<h1>Pay with Khalti<\/h1>/);
  assert.match(html, /<p class="error" role="alert">Wrong Khalti ID\.<\/p>/);
  assert.deepEqual(buttons(html), ['pay: Pay', 'cancel: Cancel']);
  assert.match(html, /<form method="post" action="\/khalti\/pay\/">/);
  assert.match(html, /Khalti IDs 9800000000 to 9800000005, MPIN 1111, OTP 987654/);
  assert.match(html, /<a lang="ne" hreflang="ne" href="\/khalti\/pay\/\?pidx=P%261&#38;lang=ne">नेपाली<\/a>/);
});

describe('over HTTP', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: 'TEASHOP' });
  });
  after(() => sandbox.close());

  const get = async (url: string) => {
    const response = await fetch(url, { signal: AbortSignal.timeout(LIMIT_MS) });
    return { status: response.status, text: await response.text() };
  };

  test('payment_url answers the English page, with a switch to Nepali', async () => {
    const { body } = await initiate(sandbox.baseUrl);
    const page = await get(String(body['payment_url']));
    assert.equal(page.status, 200);
    assert.match(page.text, /<html lang="en">/);
    assert.match(page.text, /<a lang="ne" hreflang="ne" href="\/khalti\/pay\/\?pidx=\w+&#38;lang=ne">/);
  });

  test('payment_url with lang=ne answers the page in Nepali; a refused try keeps the language; the pay goes through', async () => {
    const { pidx, body } = await initiate(sandbox.baseUrl);
    const page = await get(`${String(body['payment_url'])}&lang=ne`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<html lang="ne">/);
    assert.match(page.text, /Masala &#60;tea&#62;/);
    assert.match(page.text, /Rs 12\.50/);
    assert.deepEqual(buttons(page.text), ['pay: भुक्तानी गर्नुहोस्', 'cancel: रद्द गर्नुहोस्']);
    const post = (form: Record<string, string>) =>
      fetch(`${sandbox.baseUrl}/khalti/pay/?lang=ne`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ pidx, khalti_id: '9800000000', mpin: '1111', otp: '987654', scenario: '', ...form }).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(LIMIT_MS),
      });
    const refused = await post({ action: 'pay', mpin: '0000' });
    assert.equal(refused.status, 422);
    assert.match(await refused.text(), /<html lang="ne">[\s\S]*<p class="error" role="alert">खल्ती आईडी, MPIN वा OTP मिलेन।/);
    const paid = await post({ action: 'pay' });
    assert.equal(paid.status, 302);
    assert.match(paid.headers.get('location') ?? '', /status=Completed/);
  });
});
