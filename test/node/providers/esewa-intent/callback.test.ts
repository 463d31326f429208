import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readRawJsonObject, RawJsonError } from '../../../../src/protocol/raw-json.js';
import { verifyCallback, CallbackVerificationError, type CallbackRejectionReason } from '../../../../src/providers/esewa-intent/callback.js';

// Vectors computed independently with node:crypto, never with the code under test.
const nodeSign = (message: string, key: string) =>
  createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');

const KEY = 'merchant-access-key-42';

/** A callback body as text, with `amountText` written verbatim and the signature over `signedAmount`. */
function callbackBody(
  amountText: string,
  options: { key?: string; signedAmount?: string; status?: string; fields?: string; extra?: string } = {},
): string {
  const status = options.status ?? 'SUCCESS';
  const message = `product_code=SHOP01,amount=${options.signedAmount ?? amountText},reference_code=REF-9,correlation_id=cr_1,status=${status}`;
  const signature = nodeSign(message, options.key ?? KEY);
  return `{
    "product_code": "SHOP01",
    "amount": ${amountText},
    "reference_code": "REF-9",
    "correlation_id": "cr_1",
    "status": "${status}",
    "signed_field_names": "${options.fields ?? 'product_code,amount,reference_code,correlation_id,status'}",
    "signature": "${signature}"${options.extra ?? ''}
  }`;
}

async function rejects(body: string, reason: CallbackRejectionReason, pattern: RegExp, key = KEY) {
  await assert.rejects(verifyCallback(body, key), (error: unknown) => {
    assert.ok(error instanceof CallbackVerificationError, `expected CallbackVerificationError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    assert.match(error.message, pattern);
    return true;
  });
}

describe('readRawJsonObject', () => {
  test('keeps each top-level value exactly as written', () => {
    const members = readRawJsonObject(
      ' {"a":1000.0, "b" : 1e3,"c":-0.50,"d":"x\\"y\\u0041","e":{"k":"}]","n":[1,{"z":"{"}]},"f":[ "]" ,2 ],"g":true,"h":null }\n',
    );
    assert.deepEqual(
      Object.fromEntries([...members].map(([name, member]) => [name, member.raw])),
      {
        a: '1000.0',
        b: '1e3',
        c: '-0.50',
        d: '"x\\"y\\u0041"',
        e: '{"k":"}]","n":[1,{"z":"{"}]}',
        f: '[ "]" ,2 ]',
        g: 'true',
        h: 'null',
      },
    );
    assert.equal(members.get('a')?.value, 1000);
    assert.equal(members.get('d')?.value, 'x"yA');
    assert.deepEqual(members.get('e')?.value, { k: '}]', n: [1, { z: '{' }] });
  });

  test('decodes escaped member names', () => {
    const members = readRawJsonObject('{"am\\u006Funt":5}');
    assert.equal(members.get('amount')?.raw, '5');
  });

  test('reads an empty object', () => {
    assert.equal(readRawJsonObject('{ }').size, 0);
  });

  test('refuses malformed JSON, non-objects and repeated names, each with its reason', () => {
    const reasonOf = (text: string) => {
      try {
        readRawJsonObject(text);
      } catch (error) {
        assert.ok(error instanceof RawJsonError);
        return error.reason;
      }
      return 'accepted';
    };
    assert.equal(reasonOf('{"a":1,}'), 'malformed_json');
    assert.equal(reasonOf(''), 'malformed_json');
    assert.equal(reasonOf('[1]'), 'not_an_object');
    assert.equal(reasonOf('null'), 'not_an_object');
    assert.equal(reasonOf('"text"'), 'not_an_object');
    assert.equal(reasonOf('{"a":1,"a":2}'), 'duplicate_member');
  });
});

describe('verifyCallback', () => {
  test('accepts a callback signed with the access key and returns the typed payload', async () => {
    const payload = await verifyCallback(callbackBody('1000'), KEY);
    assert.deepEqual(
      { ...payload, signature: undefined },
      {
        product_code: 'SHOP01',
        amount: 1000,
        amount_text: '1000',
        reference_code: 'REF-9',
        correlation_id: 'cr_1',
        status: 'SUCCESS',
        signed_field_names: 'product_code,amount,reference_code,correlation_id,status',
        signature: undefined,
      },
    );
  });

  test('verifies "amount": 1000.0 as 1000.0, not as 1000', async () => {
    const payload = await verifyCallback(callbackBody('1000.0'), KEY);
    assert.equal(payload.amount, 1000);
    assert.equal(payload.amount_text, '1000.0');
    // Signed over the re-serialised number: what a JSON.parse-based check would accept, and must not.
    await rejects(callbackBody('1000.0', { signedAmount: '1000' }), 'bad_signature', /signature does not match/);
  });

  test('verifies decimals and exponents as written', async () => {
    assert.equal((await verifyCallback(callbackBody('12.50'), KEY)).amount, 12.5);
    assert.equal((await verifyCallback(callbackBody('1.5E3'), KEY)).amount_text, '1.5E3');
  });

  test('signs a string by its decoded value', async () => {
    const message = 'product_code=SHOP01,amount=5,reference_code=R-1,correlation_id=cr_1,status=FAILED';
    const body = JSON.stringify({
      product_code: 'SHOP01',
      amount: 5,
      reference_code: 'R-1',
      correlation_id: 'cr_1',
      status: 'FAILED',
      signed_field_names: 'product_code,amount,reference_code,correlation_id,status',
      signature: nodeSign(message, KEY),
    }).replace('"R-1"', '"R\\u002D1"');
    assert.match(body, /R\\u002D1/);
    assert.equal((await verifyCallback(body, KEY)).reference_code, 'R-1');
  });

  test('refuses another key and a tampered value', async () => {
    await rejects(callbackBody('1000'), 'bad_signature', /wrong access key, or the body was altered/, 'another-key');
    const tampered = callbackBody('1000').replace('"amount": 1000', '"amount": 1');
    await rejects(tampered, 'bad_signature', /signature/);
    const flippedStatus = callbackBody('1000', { status: 'FAILED' }).replace('"FAILED"', '"SUCCESS"');
    await rejects(flippedStatus, 'bad_signature', /signature/);
  });

  test('refuses malformed JSON and non-objects', async () => {
    await rejects('{"product_code": "SHOP01",', 'malformed_json', /not valid JSON/);
    await rejects('', 'malformed_json', /not valid JSON/);
    await rejects('[]', 'not_an_object', /must be a JSON object; got an array/);
    await rejects('42', 'not_an_object', /got number/);
  });

  test('refuses a repeated field', async () => {
    await rejects(callbackBody('1000', { extra: ',\n"status": "SUCCESS"' }), 'duplicate_field', /"status" more than once/);
  });

  test('names missing and extra fields', async () => {
    const body = JSON.parse(callbackBody('1000')) as Record<string, unknown>;
    delete body.reference_code;
    delete body.signature;
    await rejects(JSON.stringify(body), 'missing_field', /missing field\(s\) reference_code, signature/);
    await rejects(callbackBody('1000', { extra: ',\n"booking_id": "bk_1"' }), 'extra_field', /unexpected field\(s\) "booking_id"/);
  });

  test('refuses wrong types', async () => {
    await rejects(callbackBody('"1000"'), 'invalid_field', /"amount" must be a JSON number; got a string/);
    await rejects(callbackBody('null'), 'invalid_field', /"amount" must be a JSON number; got null/);
    const numericStatus = callbackBody('1000').replace('"status": "SUCCESS"', '"status": 1');
    await rejects(numericStatus, 'invalid_field', /"status" must be a non-empty string; got number/);
    const emptyReference = callbackBody('1000').replace('"REF-9"', '""');
    await rejects(emptyReference, 'invalid_field', /"reference_code" must be a non-empty string; got an empty string/);
  });

  test('requires exactly the callback signed field list', async () => {
    await rejects(
      callbackBody('1000', { fields: 'product_code,amount,reference_code,correlation_id' }),
      'wrong_signed_fields',
      /signed_field_names must be "product_code,amount,reference_code,correlation_id,status"/,
    );
    await rejects(
      callbackBody('1000', { fields: 'amount,product_code,reference_code,correlation_id,status' }),
      'wrong_signed_fields',
      /got "amount,product_code/,
    );
  });

  test('refuses a status the spec does not know', async () => {
    await rejects(callbackBody('1000', { status: 'PAID' }), 'unknown_status', /status "PAID" is not one of BOOKED, SUCCESS/);
  });

  test('refuses a body that is not text', async () => {
    await rejects({ amount: 1 } as unknown as string, 'malformed_json', /raw text/);
  });
});
