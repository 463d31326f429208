/** The merchant key with real Web Crypto: receipts, booking uuids with their order tag, order keys. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMerchantKey, orderKeyOf, transactionUuid } from '../../../src/server/order-tag.js';

const key = createMerchantKey('SHOP', 'access-key');

test('a receipt is given for a booking\'s ids and accepted for those ids only', async () => {
  const receipt = await key.receiptOf('B-1', 'C-1');
  assert.ok(await key.isReceiptOf(receipt, 'B-1', 'C-1'));
  assert.ok(!(await key.isReceiptOf(receipt, 'B-1', 'C-2')));
  assert.ok(!(await key.isReceiptOf(receipt, 'B-2', 'C-1')));
  assert.ok(!(await createMerchantKey('OTHER', 'access-key').isReceiptOf(receipt, 'B-1', 'C-1')), "another product's key does not pass it");
  assert.ok(!(await createMerchantKey('SHOP', 'another-key').isReceiptOf(receipt, 'B-1', 'C-1')));
  for (const bad of [undefined, 42, '', 'forged==']) assert.ok(!(await key.isReceiptOf(bad, 'B-1', 'C-1')), String(bad));
});

test('the same attempt gives the same transaction uuid; other content another', async () => {
  const first = await transactionUuid('SHOP', 'key-1', 'app\nO-1\n1000');
  assert.equal(await transactionUuid('SHOP', 'key-1', 'app\nO-1\n1000'), first);
  assert.match(first, /^wpb_/);
  assert.notEqual(await transactionUuid('SHOP', 'key-1', 'app\nO-2\n1000'), first);
  assert.notEqual(await transactionUuid('SHOP', 'key-2', 'app\nO-1\n1000'), first);
  assert.notEqual(await transactionUuid('OTHER', 'key-1', 'app\nO-1\n1000'), first);
});

test("a lost booking's uuid gives back its order and amount, for that order only", async () => {
  const order = { id: 'O-1', lines: [{ sku: 'A', qty: 1 }] };
  const uuid = await key.bookingUuid('key-1', '["v2","app","O-1"]', order, 1250.5, 7);
  assert.equal(uuid, await key.bookingUuid('key-1', '["v2","app","O-1"]', order, 1250.5, 7), 'the same attempt under the same token, the same uuid');
  const nextBook = await key.bookingUuid('key-1', '["v2","app","O-1"]', order, 1250.5, 8);
  assert.notEqual(nextBook, uuid, 'another book of the key (another token): another uuid');
  assert.deepEqual(await key.orderOfLostBooking(nextBook, order), { order, amount: 1250.5 }, 'whose tag still names the order');
  assert.deepEqual(await key.orderOfLostBooking(uuid, order), { order, amount: 1250.5 });
  assert.deepEqual(await key.orderOfLostBooking(uuid, { lines: [{ qty: 1, sku: 'A' }], id: 'O-1' }), { order: { lines: [{ qty: 1, sku: 'A' }], id: 'O-1' }, amount: 1250.5 }, 'the order rebuilt in another key order');
  assert.equal(await key.orderOfLostBooking(uuid, { id: 'O-2' }), undefined, 'another order');
  assert.equal(await key.orderOfLostBooking(uuid, undefined), undefined);
  assert.equal(await createMerchantKey('SHOP', 'another-key').orderOfLostBooking(uuid, order), undefined, 'no one without the key can forge it');
  const changedAmount = `${uuid.slice(0, -1)}${uuid.at(-1) === 'a' ? 'b' : 'a'}`;
  assert.equal(await key.orderOfLostBooking(changedAmount, order), undefined, 'an amount written otherwise');
  for (const other of ['', 'wpb_short', `xyz_${uuid.slice(4)}`, `${uuid.slice(0, 52)}!!`]) assert.equal(await key.orderOfLostBooking(other, order), undefined, other);
});

test("an order's store key is fixed-size, URL-safe and the same for the same id", async () => {
  const a = await orderKeyOf('O-1');
  assert.equal(a, await orderKeyOf('O-1'));
  assert.notEqual(a, await orderKeyOf('O-2'));
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.equal((await orderKeyOf('x'.repeat(256))).length, 43);
});
