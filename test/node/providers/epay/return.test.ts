/**
 * eSewa ePay v2's signed return (the success redirect's `data`): eSewa's published return (vector 2 of
 * providers.md) as a JSON number and as a string, its re-serialised `1000`, the UAT capture with
 * `"2,700.0"` (vector 3), what URLs and forms do to base64, and each refusal. Signatures other than the
 * published ones come from node:crypto, never from the code under test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readEpayReturn, type EpayReturnReading } from '../../../../src/providers/epay/return.js';
import { EPAY_TEST_CREDENTIALS } from '../../../../src/providers/epay/wire.js';
import { SignatureInputError } from '../../../../src/protocol/signature.js';

const { secretKey: SECRET, productCode: CODE } = EPAY_TEST_CREDENTIALS;
const OPTIONS = { secretKey: SECRET, productCode: CODE };
const LIST = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';
const PUBLISHED = '62GcfZTmVkzhtUeh+QJ1AqiJrjoWWGof3U+eTPTZ7fA=';
const nodeSign = (message: string, key: string = SECRET) => createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** Vector 2's payload as JSON text; `amount` is the raw JSON literal of total_amount. */
function published(amount = '1000.0', change: Record<string, string> = {}, extra = ''): string {
  const members: Record<string, string> = {
    transaction_code: '"000AWEO"',
    status: '"COMPLETE"',
    total_amount: amount,
    transaction_uuid: '"250610-162413"',
    product_code: '"EPAYTEST"',
    signed_field_names: `"${LIST}"`,
    signature: `"${PUBLISHED}"`,
    ...change,
  };
  return `{${Object.entries(members).map(([name, raw]) => `"${name}":${raw}`).join(',')}${extra}}`;
}

/** A payload signed here with node:crypto over `list`, from the given values (as the message writes them). */
function signed(values: Record<string, string>, list: string, raw: Record<string, string> = {}, key: string = SECRET): string {
  const message = list.split(',').map((name) => `${name}=${name === 'signed_field_names' ? list : values[name]}`).join(',');
  const members = { ...Object.fromEntries(Object.entries(values).map(([n, v]) => [n, JSON.stringify(v)])), signed_field_names: JSON.stringify(list), signature: JSON.stringify(nodeSign(message, key)), ...raw };
  return `{${Object.entries(members).map(([name, text]) => `"${name}":${text}`).join(',')}}`;
}
const VALUES = { transaction_code: '000AWEO', status: 'COMPLETE', total_amount: '1000.0', transaction_uuid: '250610-162413', product_code: 'EPAYTEST' };

function refusal(reading: EpayReturnReading): string {
  return reading.ok ? 'ok' : reading.reason;
}

describe('readEpayReturn: eSewa\'s vectors', () => {
  test('vector 2, total_amount the JSON number 1000.0: verifies, the amount kept as written', async () => {
    assert.deepEqual(await readEpayReturn(b64(published('1000.0')), OPTIONS), {
      ok: true,
      value: {
        transaction_code: '000AWEO',
        status: 'COMPLETE',
        total_amount: 1000,
        total_amount_text: '1000.0',
        transaction_uuid: '250610-162413',
        product_code: 'EPAYTEST',
      },
    });
  });

  test('vector 2, total_amount the string "1000.0": verifies', async () => {
    const reading = await readEpayReturn(b64(published('"1000.0"')), OPTIONS);
    assert.ok(reading.ok, JSON.stringify(reading));
    assert.equal(reading.value.total_amount_text, '1000.0');
    assert.equal(reading.value.total_amount, 1000);
  });

  test('vector 2 re-serialised with 1000 (as JSON.parse and JSON.stringify would): refused as signature', async () => {
    assert.equal(JSON.stringify(JSON.parse(published('1000.0'))), published('1000'));
    for (const amount of ['1000', '"1000"', '1000.00']) {
      const reading = await readEpayReturn(b64(published(amount)), OPTIONS);
      assert.equal(refusal(reading), 'signature', amount);
    }
    // And 1000 verifies only under its own signature (computed, not published).
    assert.equal(refusal(await readEpayReturn(b64(published('1000', { signature: '"L/qUIEhgWonoiBE5fPGBfSndglUjaapYTsNVWVS7PDA="' })), OPTIONS)), 'ok');
  });

  test('a string member counts by its decoded value: "000AWE\\u004f" signs as 000AWEO', async () => {
    assert.equal(refusal(await readEpayReturn(b64(published('1000.0', { transaction_code: '"000AWE\\u004f"' })), OPTIONS)), 'ok');
  });

  test('vector 3, the UAT capture with "2,700.0": verifies over 2700.0, the text kept with its comma', async () => {
    const capture = `{"transaction_code":"00094GS","status":"COMPLETE","total_amount":"2,700.0","transaction_uuid":"1733133399321-3c709af7-23b9-4083-b89c-1a6d50480004","product_code":"EPAYTEST","signed_field_names":"${LIST}","signature":"gzvlXYw1Oe6rh0W/9ifhdkKfxrEyWHItdLW1fT5kO4I="}`;
    const reading = await readEpayReturn(b64(capture), OPTIONS);
    assert.ok(reading.ok, JSON.stringify(reading));
    assert.equal(reading.value.total_amount, 2700);
    assert.equal(reading.value.total_amount_text, '2,700.0');
    // Signed over the text with its comma, the same payload is not eSewa's.
    const withComma = signed({ ...VALUES, total_amount: '2,700.0' }, LIST);
    assert.equal(refusal(await readEpayReturn(b64(withComma), OPTIONS)), 'signature');
  });
});

describe('readEpayReturn: what URLs and forms do to the base64', () => {
  /** Vector 2 with an unsigned member chosen so its base64 holds "+", "/" and padding. */
  function awkward(): string {
    for (let a = 0; a < 6; a++) {
      for (let b = 0; b < 6; b++) {
        const text = published('1000.0', {}, `,"note":"${'~'.repeat(a)}${'?'.repeat(b)}नमस्ते"`);
        const encoded = b64(text);
        if (encoded.includes('+') && encoded.includes('/') && encoded.endsWith('=')) return encoded;
      }
    }
    throw new Error('no note gives "+", "/" and padding');
  }

  test('"+" turned into spaces by form decoding', async () => {
    const encoded = awkward();
    assert.equal(refusal(await readEpayReturn(encoded.replaceAll('+', ' '), OPTIONS)), 'ok');
    assert.equal(refusal(await readEpayReturn(new URLSearchParams(`data=${encoded}`).get('data')!, OPTIONS)), 'ok');
  });

  test('the URL-safe alphabet, without padding', async () => {
    const encoded = awkward();
    const urlSafe = encoded.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
    assert.notEqual(urlSafe, encoded);
    assert.equal(refusal(await readEpayReturn(urlSafe, OPTIONS)), 'ok');
    assert.equal(refusal(await readEpayReturn(encoded.replace(/=+$/, ''), OPTIONS)), 'ok');
  });
});

describe('readEpayReturn: refusals', () => {
  test('malformed: not base64, not UTF-8, not a JSON object', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['not base64', '%%%', /base64/],
      ['empty', '', /base64/],
      ['a lone base64 digit', 'abcde', /base64/],
      ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64'), /UTF-8/],
      ['not JSON', b64('transaction_code=000AWEO'), /not a JSON object/],
      ['a JSON array', b64('[1,2]'), /not a JSON object/],
      ['a member twice', b64(published('1000.0', {}, ',"status":"COMPLETE"')), /more than once/],
    ];
    for (const [what, data, message] of cases) {
      const reading = await readEpayReturn(data, OPTIONS);
      assert.ok(!reading.ok && reading.reason === 'malformed' && message.test(reading.message), `${what}: ${JSON.stringify(reading)}`);
    }
  });

  test('malformed: a member missing or of the wrong type', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['no transaction_code', published().replace('"transaction_code":"000AWEO",', ''), /"transaction_code"/],
      ['status a number', published('1000.0', { status: '1' }), /"status"/],
      ['signature null', published('1000.0', { signature: 'null' }), /"signature"/],
      ['no total_amount', published().replace('"total_amount":1000.0,', ''), /total_amount.*missing/],
      ['total_amount a word', published('"a lot"'), /total_amount.*"a lot"/],
      ['total_amount true', published('true'), /total_amount/],
      ['total_amount negative', published('-1000.0'), /total_amount/],
      ['a signed field that is not there', signed(VALUES, `${LIST},extra`), /"extra"/],
    ];
    for (const [what, text, message] of cases) {
      const reading = await readEpayReturn(b64(text), OPTIONS);
      assert.ok(!reading.ok && reading.reason === 'malformed' && message.test(reading.message), `${what}: ${JSON.stringify(reading)}`);
    }
  });

  test('signed-fields: a list that leaves out a field that must be signed, or cannot be read', async () => {
    for (const left of ['total_amount', 'transaction_uuid', 'status', 'product_code']) {
      const list = LIST.split(',').filter((name) => name !== left).join(',');
      const reading = await readEpayReturn(b64(signed(VALUES, list)), OPTIONS);
      assert.ok(!reading.ok && reading.reason === 'signed-fields' && reading.message.includes(left), `${left}: ${JSON.stringify(reading)}`);
    }
    const spaced = await readEpayReturn(b64(published('1000.0', { signed_field_names: '"status, total_amount"' })), OPTIONS);
    assert.equal(refusal(spaced), 'signed-fields');
  });

  test('the list\'s own order is the message\'s order; the four required fields suffice', async () => {
    const list = 'product_code,status,transaction_uuid,total_amount';
    assert.equal(refusal(await readEpayReturn(b64(signed(VALUES, list)), OPTIONS)), 'ok');
  });

  test('signature: another key, a changed field, a signature that is not base64', async () => {
    assert.equal(refusal(await readEpayReturn(b64(published()), { ...OPTIONS, secretKey: `${SECRET}(` })), 'signature');
    assert.equal(refusal(await readEpayReturn(b64(published('1000.0', { status: '"FULL_REFUND"' })), OPTIONS)), 'signature');
    assert.equal(refusal(await readEpayReturn(b64(published('1000.0', { transaction_uuid: '"250610-162414"' })), OPTIONS)), 'signature');
    assert.equal(refusal(await readEpayReturn(b64(published('1000.0', { signature: '"not a signature"' })), OPTIONS)), 'signature');
  });

  test('product-code: signed with this secret, for another merchant; another merchant\'s key says so too', async () => {
    const other = await readEpayReturn(b64(signed({ ...VALUES, product_code: 'OTHERSHOP' }, LIST)), OPTIONS);
    assert.ok(!other.ok && other.reason === 'product-code' && other.message.includes('"OTHERSHOP"'), JSON.stringify(other));
    const foreign = await readEpayReturn(b64(signed({ ...VALUES, product_code: 'OTHERSHOP' }, LIST, {}, 'another-secret')), OPTIONS);
    assert.ok(!foreign.ok && foreign.reason === 'signature' && foreign.message.includes('"OTHERSHOP"'), JSON.stringify(foreign));
    const mine = await readEpayReturn(b64(published()), { ...OPTIONS, productCode: 'MYSHOP' });
    assert.equal(refusal(mine), 'product-code');
  });

  test('an empty secret key is a setup mistake: it rejects rather than reading', async () => {
    await assert.rejects(readEpayReturn(b64(published()), { ...OPTIONS, secretKey: '' }), SignatureInputError);
  });
});
