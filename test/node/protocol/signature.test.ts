import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  createSignature,
  verifySignature,
  verifyMessage,
  signatureMessage,
  parseSignedFieldNames,
  SignatureInputError,
  SIGNED_FIELDS,
} from '../../../src/protocol/signature.js';

// Vectors computed independently, with node:crypto, never with the code under test.
const nodeSign = (message: string, key: string) => createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');

const KEY = 'dev-access-key-0123456789';

describe('createSignature', () => {
  test('matches node:crypto for the book fields', async () => {
    const values = { product_code: 'SHOP01', amount: 1000, transaction_uuid: 'order-1001-a' };
    const expected = nodeSign('product_code=SHOP01,amount=1000,transaction_uuid=order-1001-a', KEY);
    assert.equal(await createSignature(values, SIGNED_FIELDS.book, KEY), expected);
  });

  test('follows the order of signed_field_names, not of the object', async () => {
    const values = { transaction_uuid: 't-1', amount: 5, product_code: 'P' };
    assert.equal(
      await createSignature(values, 'amount,product_code', KEY),
      nodeSign('amount=5,product_code=P', KEY),
    );
  });

  test('writes numbers as JavaScript does and strings as they are', async () => {
    const values = { amount: 1000.5, text: '1000.0' };
    assert.equal(await createSignature(values, 'amount,text', KEY), nodeSign('amount=1000.5,text=1000.0', KEY));
  });

  test('keys and values are UTF-8', async () => {
    const key = 'कुञ्जी-ключ';
    const values = { name: 'नमस्ते' };
    assert.equal(await createSignature(values, 'name', key), nodeSign('name=नमस्ते', key));
  });

  test('produces standard padded base64', async () => {
    const sig = await createSignature({ a: 'x' }, 'a', KEY);
    assert.match(sig, /^[A-Za-z0-9+/]{43}=$/);
  });

  test('refuses a listed field without a value', async () => {
    await assert.rejects(createSignature({ a: 'x' }, 'a,b', KEY), SignatureInputError);
  });

  test('refuses spaces, empty names and repeats in signed_field_names', () => {
    assert.throws(() => parseSignedFieldNames('a, b'), /without spaces/);
    assert.throws(() => parseSignedFieldNames('a,,b'), SignatureInputError);
    assert.throws(() => parseSignedFieldNames(''), /empty/);
    assert.throws(() => parseSignedFieldNames('a,a'), /twice/);
  });

  test('refuses objects and non-finite numbers as values', () => {
    assert.throws(() => signatureMessage({ a: { b: 1 } }, 'a'), /string or a number/);
    assert.throws(() => signatureMessage({ a: Number.NaN }, 'a'), /finite/);
  });

  test('refuses an empty access key', async () => {
    await assert.rejects(createSignature({ a: 'x' }, 'a', ''), /access key is empty/);
  });
});

describe('verifySignature', () => {
  const payload = {
    booking_id: 'bk_1',
    product_code: 'SHOP01',
    correlation_id: 'cr_1',
    signed_field_names: SIGNED_FIELDS.status,
    signature: nodeSign('booking_id=bk_1,product_code=SHOP01,correlation_id=cr_1', KEY),
  };

  test('accepts a payload signed with the same key over the expected fields', async () => {
    assert.equal(await verifySignature(payload, KEY, SIGNED_FIELDS.status), true);
  });

  test('needs the expected field list: without it, nothing is checked and the call throws', async () => {
    await assert.rejects(verifySignature(payload, KEY, undefined as unknown as string), /expected field list/);
    await assert.rejects(verifySignature(payload, KEY, ''), /expected field list/);
  });

  test('refuses another key, a changed value, a changed signature', async () => {
    assert.equal(await verifySignature(payload, 'another-key', SIGNED_FIELDS.status), false);
    assert.equal(await verifySignature({ ...payload, booking_id: 'bk_2' }, KEY, SIGNED_FIELDS.status), false);
    const flipped = (payload.signature[0] === 'A' ? 'B' : 'A') + payload.signature.slice(1);
    assert.equal(await verifySignature({ ...payload, signature: flipped }, KEY, SIGNED_FIELDS.status), false);
  });

  test('refuses signed fields other than the operation expects', async () => {
    const partial = {
      ...payload,
      signed_field_names: 'booking_id,product_code',
      signature: nodeSign('booking_id=bk_1,product_code=SHOP01', KEY),
    };
    assert.equal(await verifySignature(partial, KEY, 'booking_id,product_code'), true);
    assert.equal(await verifySignature(partial, KEY, SIGNED_FIELDS.status), false);
    // A web-payment form's signature (product_code,amount,transaction_uuid) passed off as a callback.
    const form = {
      product_code: 'SHOP01',
      amount: '100',
      transaction_uuid: 'wpb_x',
      status: 'SUCCESS',
      signed_field_names: SIGNED_FIELDS.book,
      signature: nodeSign('product_code=SHOP01,amount=100,transaction_uuid=wpb_x', KEY),
    };
    assert.equal(await verifySignature(form, KEY, SIGNED_FIELDS.book), true);
    assert.equal(await verifySignature(form, KEY, SIGNED_FIELDS.callback), false);
  });

  test('refuses URL-safe or unpadded base64 and non-strings', async () => {
    const unpadded = payload.signature.replace(/=+$/, '');
    assert.equal(await verifyMessage('x', unpadded, KEY), false);
    assert.equal(await verifySignature({ ...payload, signature: 42 }, KEY, SIGNED_FIELDS.status), false);
    assert.equal(await verifySignature({ ...payload, signed_field_names: undefined }, KEY, SIGNED_FIELDS.status), false);
    assert.equal(await verifySignature({ ...payload, signature: '' }, KEY, SIGNED_FIELDS.status), false);
  });

  test('returns false, not an exception, for a missing signed field', async () => {
    const { correlation_id: _drop, ...rest } = payload;
    assert.equal(await verifySignature(rest, KEY, SIGNED_FIELDS.status), false);
  });
});
