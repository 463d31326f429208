/**
 * The desktop answer, `web_payment`: `fields` is required for a POST (in the type and in what the
 * element accepts), and signature-vectors.json carries the form's signature, which the kit's own
 * signing reproduces and the element takes as it is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { WebPaymentInstruction } from '../../../src/protocol/contract.js';
import { createSignature, signatureMessage, verifySignature, WEB_PAYMENT_SIGNED_FIELDS } from '../../../src/protocol/signature.js';
import { BookingError, parseBookResult } from '../../../src/core/booking-client.js';

interface WebPaymentVector {
  id: string;
  operation: string;
  signed_field_names: string;
  key: string;
  fields: Record<string, string>;
  message: string;
  signature: string;
  web_payment: WebPaymentInstruction;
}
const file = JSON.parse(readFileSync(new URL('../../../signature-vectors.json', import.meta.url), 'utf8')) as { vectors: Array<WebPaymentVector & { kind: string }> };
const webPaymentVectors = file.vectors.filter((vector) => vector.kind === 'web-payment');

test('a POST instruction without fields is no WebPaymentInstruction; a GET may go without', () => {
  // @ts-expect-error a form is posted with its fields
  const post: WebPaymentInstruction = { url: 'https://pay.example/form', method: 'POST' };
  const get: WebPaymentInstruction = { url: 'https://pay.example/form', method: 'GET' };
  assert.ok(post && get);
});

test('the element refuses a POST web_payment without fields, by name, and takes a GET without them', () => {
  const data = { booking_id: 'B1', correlation_id: 'C1', channel: 'web' };
  assert.throws(
    () => parseBookResult({ ...data, web_payment: { url: 'https://pay.example/form', method: 'POST' } }, 'web'),
    (error: unknown) => error instanceof BookingError && error.kind === 'invalid-response' && error.message.includes('"web_payment.fields"'),
  );
  assert.deepEqual(parseBookResult({ ...data, web_payment: { url: 'https://pay.example/form', method: 'GET' } }, 'web').web_payment, {
    url: 'https://pay.example/form',
    method: 'GET',
  });
});

test('signature-vectors.json has the web payment form\'s signature, made and verified by the kit\'s signing', async () => {
  assert.ok(webPaymentVectors.length >= 1, 'a web-payment vector');
  for (const vector of webPaymentVectors) {
    assert.equal(vector.operation, 'web_payment');
    assert.equal(vector.signed_field_names, WEB_PAYMENT_SIGNED_FIELDS);
    assert.equal(signatureMessage(vector.fields, vector.signed_field_names), vector.message);
    assert.equal(await createSignature(vector.fields, WEB_PAYMENT_SIGNED_FIELDS, vector.key), vector.signature);
    // The answer's form: the signed ids, the field list and the signature, all strings, as the element posts them.
    const form = vector.web_payment;
    assert.equal(form.method, 'POST');
    assert.deepEqual(form.fields, { ...vector.fields, signed_field_names: WEB_PAYMENT_SIGNED_FIELDS, signature: vector.signature });
    assert.equal(await verifySignature(form.fields!, vector.key, WEB_PAYMENT_SIGNED_FIELDS), true);
    assert.equal(await verifySignature({ ...form.fields, booking_id: `${vector.fields.booking_id}x` }, vector.key, WEB_PAYMENT_SIGNED_FIELDS), false);
    const data = { booking_id: vector.fields.booking_id, correlation_id: vector.fields.correlation_id, channel: 'web', web_payment: form };
    assert.deepEqual(parseBookResult(data, 'web').web_payment, form);
  }
});
