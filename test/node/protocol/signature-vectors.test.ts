/**
 * The shared signature vectors (signature-vectors.json, exported as
 * `wallet-pay-button/signature-vectors.json`) against the kit's own signing and verification: every
 * vector signs and verifies by the reader of its kind, every must-fail case is refused, a callback body
 * verifies from its raw text (a `1000.0` stays `1000.0`), and eSewa's published request and return
 * reproduce through the ePay module. The example proxies' tests read the same file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { verifyCallback } from '../../../src/providers/esewa-intent/callback.js';
import { createSignature, signatureMessage, signMessage, SIGNED_FIELDS, verifyMessage, verifySignature, WEB_PAYMENT_SIGNED_FIELDS } from '../../../src/protocol/signature.js';
import { readRawJsonObject } from '../../../src/protocol/raw-json.js';
import { EPAY_REQUEST_SIGNED_FIELDS, epayFormFields } from '../../../src/providers/epay/wire.js';
import { readEpayReturn } from '../../../src/providers/epay/return.js';

type Kind = 'service' | 'web-payment' | 'epay-request' | 'epay-return';
interface Vector {
  id: string;
  kind: Kind;
  operation?: keyof typeof SIGNED_FIELDS | 'web_payment';
  signed_field_names: string;
  key: string;
  fields: Record<string, string>;
  body?: string;
  /** An eSewa return's body as its redirect carries it: base64. */
  data?: string;
  source?: 'published' | 'computed';
  message: string;
  message_utf8_hex: string;
  signature: string;
  web_payment?: { url: string; method: string; fields: Record<string, string> };
}
interface MustFail {
  id: string;
  kind: Kind;
  key: string;
  message: string;
  signature: string;
  expected_signature: string;
}
const file = JSON.parse(readFileSync(new URL('../../../signature-vectors.json', import.meta.url), 'utf8')) as {
  kinds: Record<Kind, string>;
  signed_field_names: Record<string, string>;
  vectors: Vector[];
  must_fail: MustFail[];
};

test('the file names the same signed fields as the kit, and covers every operation and the amounts asked for', () => {
  assert.deepEqual(file.signed_field_names, SIGNED_FIELDS);
  const service = file.vectors.filter((v) => v.kind === 'service');
  assert.deepEqual([...new Set(service.map((v) => v.operation))].sort(), ['book', 'callback', 'cancel', 'status']);
  const amounts = new Set(service.map((v) => v.fields.amount));
  for (const amount of ['1000', '1000.0', '250.5']) assert.ok(amounts.has(amount), `an amount written ${amount}`);
  assert.ok(file.vectors.some((v) => [...(v.body ?? '')].some((c) => c.charCodeAt(0) > 127)), 'a body with non-ASCII values');
  assert.deepEqual(file.must_fail.map((c) => c.id).slice(0, 3), ['field-out-of-order', 'space-after-comma', 'changed-amount']);
  assert.ok(file.must_fail.some((c) => c.id === 'wrong-key'));
});

test('every vector and must-fail case has a kind the file describes; the web form sits among the vectors', () => {
  assert.deepEqual(Object.keys(file.kinds).sort(), ['epay-request', 'epay-return', 'service', 'web-payment']);
  for (const entry of [...file.vectors, ...file.must_fail]) assert.ok(entry.kind in file.kinds, `${entry.id}: kind ${entry.kind}`);
  assert.deepEqual(file.vectors.filter((v) => v.kind === 'web-payment').map((v) => v.id), ['web-payment-form']);
  assert.ok(!('web_payment' in file), 'no web_payment list beside the vectors');
  assert.equal(new Set([...file.vectors, ...file.must_fail].map((v) => v.id)).size, file.vectors.length + file.must_fail.length, 'ids are unique');
});

test('eSewa\'s published request and return are here as published, and its non-reproducing signature only as a must-fail case', () => {
  const byId = new Map(file.vectors.map((v) => [v.id, v]));
  assert.equal(byId.get('epay-request-docs')?.signature, 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=');
  assert.equal(byId.get('epay-return-docs')?.signature, '62GcfZTmVkzhtUeh+QJ1AqiJrjoWWGof3U+eTPTZ7fA=');
  assert.equal(byId.get('epay-return-amount-1000')?.signature, 'L/qUIEhgWonoiBE5fPGBfSndglUjaapYTsNVWVS7PDA=');
  assert.equal(byId.get('epay-return-comma-capture')?.signature, 'gzvlXYw1Oe6rh0W/9ifhdkKfxrEyWHItdLW1fT5kO4I=');
  assert.deepEqual(file.vectors.filter((v) => v.source === 'published').map((v) => v.id).sort(), ['epay-request-docs', 'epay-return-comma-capture', 'epay-return-docs']);
  assert.ok(file.vectors.every((v) => v.signature !== '4Ov7pCI1zIOdwtV2BRMUNjz1upIlT/COTxfLhWvVurE='));
  const four = file.must_fail.find((c) => c.id === 'epay-request-docs-not-reproducing');
  assert.equal(four?.signature, '4Ov7pCI1zIOdwtV2BRMUNjz1upIlT/COTxfLhWvVurE=');
  assert.equal(four?.expected_signature, '5DZywcrTKD0gia/rsSMcrRHmJl+4Tbol6S+lWgdJ94E=');
});

/** What each kind's reader checks beyond the message and its HMAC. */
const READERS: Record<Kind, (vector: Vector) => Promise<void>> = {
  async service(vector) {
    assert.equal(vector.signed_field_names, SIGNED_FIELDS[vector.operation as keyof typeof SIGNED_FIELDS]);
    assert.equal(await createSignature(vector.fields, vector.signed_field_names, vector.key), vector.signature);
    assert.equal(await verifySignature({ ...vector.fields, signed_field_names: vector.signed_field_names, signature: vector.signature }, vector.key, vector.signed_field_names), true);
    if (vector.body) {
      // The body writes each signed value as the message does: a number keeps its digits.
      const members = readRawJsonObject(vector.body);
      for (const name of vector.signed_field_names.split(',')) {
        const member = members.get(name)!;
        assert.equal(typeof member.value === 'number' ? member.raw : member.value, vector.fields[name], `${name} in the body`);
      }
      assert.equal(members.get('signature')?.value, vector.signature);
    }
    if (vector.operation === 'callback') {
      const payload = await verifyCallback(vector.body!, vector.key);
      assert.equal(payload.amount_text, vector.fields.amount);
      await assert.rejects(verifyCallback(vector.body!, `${vector.key}-other`), { reason: 'bad_signature' });
    }
  },
  async 'web-payment'(vector) {
    assert.equal(vector.signed_field_names, WEB_PAYMENT_SIGNED_FIELDS);
    assert.equal(await createSignature(vector.fields, WEB_PAYMENT_SIGNED_FIELDS, vector.key), vector.signature);
    assert.deepEqual(vector.web_payment?.fields, { ...vector.fields, signed_field_names: WEB_PAYMENT_SIGNED_FIELDS, signature: vector.signature });
    assert.equal(await verifySignature(vector.web_payment.fields, vector.key, WEB_PAYMENT_SIGNED_FIELDS), true);
  },
  async 'epay-request'(vector) {
    assert.equal(vector.signed_field_names, EPAY_REQUEST_SIGNED_FIELDS);
    const fields = await epayFormFields(
      { amount: Number(vector.fields.total_amount), transactionUuid: vector.fields.transaction_uuid!, productCode: vector.fields.product_code!, successUrl: 'https://shop.example/s', failureUrl: 'https://shop.example/f' },
      vector.key,
    );
    assert.equal(fields.total_amount, vector.fields.total_amount);
    assert.equal(fields.signature, vector.signature);
  },
  async 'epay-return'(vector) {
    assert.equal(Buffer.from(vector.data!, 'base64').toString('utf8'), vector.body);
    const options = { secretKey: vector.key, productCode: vector.fields.product_code! };
    const reading = await readEpayReturn(vector.data!, options);
    assert.ok(reading.ok, JSON.stringify(reading));
    // The body's literal, quotes aside, is the amount as written; the message drops its comma.
    const members = readRawJsonObject(vector.body!);
    const amount = members.get('total_amount')!;
    assert.equal(reading.value.total_amount_text, typeof amount.value === 'string' ? amount.value : amount.raw);
    assert.equal(reading.value.total_amount_text.replaceAll(',', ''), vector.fields.total_amount);
    assert.equal(members.get('signature')?.value, vector.signature);
    const foreign = await readEpayReturn(vector.data!, { ...options, secretKey: `${vector.key}(` });
    assert.equal(foreign.ok ? 'ok' : foreign.reason, 'signature');
  },
};

for (const vector of file.vectors) {
  test(`vector ${vector.id} (${vector.kind}): the kit builds the same message and signature, and verifies it`, async () => {
    assert.equal(signatureMessage(vector.fields, vector.signed_field_names), vector.message);
    assert.equal(Buffer.from(vector.message, 'utf8').toString('hex'), vector.message_utf8_hex);
    assert.equal(await signMessage(vector.message, vector.key), vector.signature);
    assert.equal(await verifyMessage(vector.message, vector.signature, vector.key), true);
    await READERS[vector.kind](vector);
  });
}

for (const bad of file.must_fail) {
  test(`must fail: ${bad.id}`, async () => {
    assert.equal(await verifyMessage(bad.message, bad.signature, bad.key), false);
    assert.equal(await signMessage(bad.message, bad.key), bad.expected_signature);
    assert.notEqual(bad.expected_signature, bad.signature);
  });
}
