/**
 * The sandbox's stand-in pages show what a provider's page would: the amount in rupees, what is paid
 * for, the merchant's product and the order's details under names a shopper reads, never a raw
 * property key (`merchant_order: A-1001`), in English by default and in Nepali with the sandbox's own
 * `?lang=ne`, which a switch on each page links and the forms carry on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { closedPage, paymentPage, propertyLabel } from '../../../../src/sandbox/esewa-intent/pages.js';
import type { SandboxBooking } from '../../../../src/sandbox/esewa-intent/service.js';
import { book, cancel } from '../support.js';

let sandbox: Sandbox;
before(async () => {
  sandbox = await startSandbox({ productCode: 'TEASHOP' });
});
after(() => sandbox.close());

const PROPERTIES = { merchant_order: 'A-1001', product_name: 'Green tea, 500 g', order_id: '1001', delivery_slot: 'Evening' };

test('the wallet page and the web payment page read as a provider\'s: rupees, the product, named details, no keys', async () => {
  const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'TEASHOP', amount: 1250.5, properties: PROPERTIES });
  const { deeplink, booking_id: id } = body.data!;
  for (const url of [deeplink!, `${sandbox.webPaymentUrl}/${id}`]) {
    const html = await (await fetch(url)).text();
    assert.match(html, /<html lang="en">/, `${url}: the pages are in English by default`);
    assert.match(html, /<a lang="ne" hreflang="ne" href="\/(web\/)?pay\/BK-[\w-]+\?lang=ne">नेपाली<\/a>/, `${url}: a switch to Nepali`);
    assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>\n<p class="product">Green tea, 500 g<\/p>/, `${url}: the amount in rupees, then what is paid for`);
    assert.match(html, /<dt>Merchant<\/dt><dd>TEASHOP<\/dd>/);
    assert.match(html, /<dt>Order<\/dt><dd>A-1001<\/dd>/);
    assert.match(html, /<dt>Order ID<\/dt><dd>1001<\/dd>/);
    assert.match(html, /<dt>Delivery slot<\/dt><dd>Evening<\/dd>/);
    for (const key of Object.keys(PROPERTIES)) assert.ok(!html.includes(key), `${url} shows the raw key ${key}`);
  }
});

test('the page of a closed booking shows the same details', async () => {
  const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'TEASHOP', properties: PROPERTIES });
  assert.equal((await cancel(sandbox.baseUrl, sandbox.accessKey, 'TEASHOP', body.data!['booking_id']!)).status, 200);
  const html = await (await fetch(body.data!['deeplink']!)).text();
  assert.match(html, /Payment closed/);
  assert.match(html, /<dt>Order<\/dt><dd>A-1001<\/dd>/);
  assert.ok(!html.includes('merchant_order'));
});

test('property names: the kit\'s and the sandbox\'s own by name, any other key as words', () => {
  assert.equal(propertyLabel('merchant_order'), 'Order');
  assert.equal(propertyLabel('sandbox_scenario'), 'Sandbox scenario');
  assert.equal(propertyLabel('item'), 'Item');
  assert.equal(propertyLabel('order_id'), 'Order ID');
  assert.equal(propertyLabel('customer_pan_no'), 'Customer PAN no');
  assert.equal(propertyLabel('gift__note_'), 'Gift note');
  assert.equal(propertyLabel('_'), '_');
});

/** A booking as the service holds one, with what the pages read. */
const BOOKING = {
  booking_id: 'BK-1',
  product_code: 'TEASHOP',
  amount: 1250.5,
  reference_code: 'REF-1',
  redirect_url: 'https://shop.example/return?order=A-1',
  properties: PROPERTIES,
  status: 'BOOKED',
  updated_at: Date.UTC(2026, 0, 2, 3, 4, 5),
} as unknown as SandboxBooking;

const buttons = (html: string) => [...html.matchAll(/<button class="(\w+)" type="submit">([^<]+)<\/button>/g)].map(([, cls, text]) => `${cls}: ${text}`);

test('the wallet and web payment pages in Nepali: lang="ne", the amount and the product, Nepali buttons, forms that keep the language', () => {
  for (const kind of ['wallet', 'web'] as const) {
    const base = kind === 'wallet' ? '/pay/BK-1' : '/web/pay/BK-1';
    const html = paymentPage({ kind, booking: BOOKING, confirmAction: `${base}/confirm`, cancelAction: `${base}/cancel`, lang: 'ne' });
    assert.match(html, /<html lang="ne">/);
    assert.match(html, new RegExp(`<body data-sandbox-page="${kind}">`));
    assert.match(html, kind === 'wallet' ? /<h1>वालेट: भुक्तानी पुष्टि गर्नुहोस्<\/h1>/ : /<h1>वेब भुक्तानी: भुक्तानी पुष्टि गर्नुहोस्<\/h1>/);
    assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>\n<p class="product">Green tea, 500 g<\/p>/);
    assert.match(html, /<dt>व्यापारी<\/dt><dd>TEASHOP<\/dd>/);
    assert.match(html, /<dt>अर्डर<\/dt><dd>A-1001<\/dd>/, "the kit's own property in Nepali");
    assert.match(html, /> वालेटको मौज्दात<\/label>/);
    assert.deepEqual(buttons(html), ['confirm: भुक्तानी पुष्टि गर्नुहोस्', 'cancel: रद्द गर्नुहोस्']);
    assert.match(html, new RegExp(`action="${base}/confirm\\?lang=ne"`));
    assert.match(html, new RegExp(`action="${base}/cancel\\?lang=ne"`));
    assert.match(html, new RegExp(`<a lang="en" hreflang="en" href="${base}">English</a>`));
    for (const key of Object.keys(PROPERTIES)) assert.ok(!html.includes(key), `shows the raw key ${key}`);
  }
});

test('the English page is as before, with the switch', () => {
  const html = paymentPage({ kind: 'web', booking: BOOKING, confirmAction: '/web/pay/BK-1/confirm', cancelAction: '/web/pay/BK-1/cancel', error: 'Enter an MPIN of 4 to 6 digits.' });
  assert.match(html, /<html lang="en">/);
  assert.match(html, /<title>Web payment: confirm payment<\/title>/);
  assert.deepEqual(buttons(html), ['confirm: Confirm payment', 'cancel: Cancel']);
  assert.match(html, /action="\/web\/pay\/BK-1\/confirm"/);
  assert.match(html, /<legend>Pay with<\/legend>/);
  assert.match(html, /> Linked bank account \(direct debit\)<\/label>/);
  assert.match(html, /MPIN 0000 fails the payment and any other 4 to 6 digits succeed\./);
});

test('a closed booking in Nepali: the details, why it is closed and the way back, in Nepali', () => {
  const html = closedPage({ ...BOOKING, status: 'SUCCESS' }, false, 'ne');
  assert.match(html, /<html lang="ne">/);
  assert.match(html, /<h1>भुक्तानी बन्द भयो<\/h1>/);
  assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>/);
  assert.match(html, /यो बुकिङको स्थिति SUCCESS हो \(2026-01-02 03:04:05 UTC देखि\)।/);
  assert.match(html, /<a href="https:\/\/shop\.example\/return\?order=A-1&#38;booking_id=BK-1&#38;status=SUCCESS">पसलमा फर्कनुहोस्<\/a>/);
  assert.match(closedPage(BOOKING, true, 'ne'), /भुक्तानी हुनुअघि नै यो बुकिङको म्याद सकियो।/);
  assert.match(closedPage(BOOKING, true), /<html lang="en">[\s\S]*This booking expired before it was paid\./);
});

test('over HTTP, ?lang=ne opens the wallet and web payment pages in Nepali, and a refused MPIN answers in Nepali', async () => {
  const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'TEASHOP', amount: 1250.5, properties: PROPERTIES });
  const { deeplink, booking_id: id } = body.data!;
  for (const url of [`${deeplink!}?lang=ne`, `${sandbox.webPaymentUrl}/${id}?lang=ne`]) {
    const html = await (await fetch(url, { signal: AbortSignal.timeout(5000) })).text();
    assert.match(html, /<html lang="ne">/, url);
    assert.match(html, /<div class="amount">NPR 1,250\.50<\/div>\n<p class="product">Green tea, 500 g<\/p>/);
    assert.deepEqual(buttons(html), ['confirm: भुक्तानी पुष्टि गर्नुहोस्', 'cancel: रद्द गर्नुहोस्']);
  }
  const refused = await fetch(`${sandbox.webPaymentUrl}/${id}/confirm?lang=ne`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'method=wallet_balance&mpin=12&scenario=',
    signal: AbortSignal.timeout(5000),
  });
  assert.equal(refused.status, 422);
  assert.match(await refused.text(), /<html lang="ne">[\s\S]*<p class="error" role="alert">4 देखि 6 अङ्कको MPIN लेख्नुहोस्।<\/p>/);
  await cancel(sandbox.baseUrl, sandbox.accessKey, 'TEASHOP', id!);
  const closed = await (await fetch(`${deeplink!}?lang=ne`, { signal: AbortSignal.timeout(5000) })).text();
  assert.match(closed, /<h1>भुक्तानी बन्द भयो<\/h1>/);
});
