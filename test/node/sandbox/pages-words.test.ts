/**
 * The sandbox's stand-in pages show what a provider's page would: the amount in rupees, what is paid
 * for, the merchant's product and the order's details under names a shopper reads, never a raw
 * property key (`merchant_order: A-1001`). The pages have no language switch: they are in English.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { propertyLabel } from '../../../src/sandbox/pages.js';
import { book, cancel } from './support.js';

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
    assert.match(html, /<html lang="en">/, `${url}: the pages are in English (they have no language switch)`);
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
