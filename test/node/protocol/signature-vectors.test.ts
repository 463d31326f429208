/**
 * The shared signature vectors (signature-vectors.json, exported as
 * `wallet-pay-button/signature-vectors.json`) against the kit's own signing and verification: every
 * vector signs and verifies, every must-fail case is refused, and a callback body verifies from its
 * raw text (a `1000.0` stays `1000.0`). The example proxies' tests read the same file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createSignature, verifyCallback, verifySignature, SIGNED_FIELDS } from '../../../src/server/index.js';
import { signatureMessage, signMessage, verifyMessage } from '../../../src/protocol/signature.js';
import { readRawJsonObject } from '../../../src/protocol/raw-json.js';

interface Vector {
  id: string;
  operation: keyof typeof SIGNED_FIELDS;
  signed_field_names: string;
  key: string;
  fields: Record<string, string>;
  body?: string;
  message: string;
  message_utf8_hex: string;
  signature: string;
}
interface MustFail {
  id: string;
  key: string;
  message: string;
  signature: string;
  expected_signature: string;
}
const file = JSON.parse(readFileSync(new URL('../../../signature-vectors.json', import.meta.url), 'utf8')) as {
  signed_field_names: Record<string, string>;
  vectors: Vector[];
  must_fail: MustFail[];
};

test('the file names the same signed fields as the kit, and covers every operation and the amounts asked for', () => {
  assert.deepEqual(file.signed_field_names, SIGNED_FIELDS);
  assert.deepEqual([...new Set(file.vectors.map((v) => v.operation))].sort(), ['book', 'callback', 'cancel', 'status']);
  const amounts = new Set(file.vectors.map((v) => v.fields.amount));
  for (const amount of ['1000', '1000.0', '250.5']) assert.ok(amounts.has(amount), `an amount written ${amount}`);
  assert.ok(file.vectors.some((v) => [...(v.body ?? '')].some((c) => c.charCodeAt(0) > 127)), 'a body with non-ASCII values');
  assert.deepEqual(file.must_fail.map((c) => c.id).slice(0, 3), ['field-out-of-order', 'space-after-comma', 'changed-amount']);
  assert.ok(file.must_fail.some((c) => c.id === 'wrong-key'));
});

for (const vector of file.vectors) {
  test(`vector ${vector.id}: the kit builds the same message and signature, and verifies it`, async () => {
    assert.equal(vector.signed_field_names, SIGNED_FIELDS[vector.operation]);
    assert.equal(signatureMessage(vector.fields, vector.signed_field_names), vector.message);
    assert.equal(Buffer.from(vector.message, 'utf8').toString('hex'), vector.message_utf8_hex);
    assert.equal(await signMessage(vector.message, vector.key), vector.signature);
    assert.equal(await createSignature(vector.fields, vector.signed_field_names, vector.key), vector.signature);
    assert.equal(await verifyMessage(vector.message, vector.signature, vector.key), true);
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
  });
}

for (const bad of file.must_fail) {
  test(`must fail: ${bad.id}`, async () => {
    assert.equal(await verifyMessage(bad.message, bad.signature, bad.key), false);
    assert.equal(await signMessage(bad.message, bad.key), bad.expected_signature);
    assert.notEqual(bad.expected_signature, bad.signature);
  });
}
