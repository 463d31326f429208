/**
 * eSewa ePay v2's form, amounts, status URL, status answer and status mapping, against eSewa's
 * published request vector (vector 1 of providers.md) and node:crypto, never the code under test.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import {
  EPAY_HOSTS,
  EPAY_REQUEST_SIGNED_FIELDS,
  EPAY_STATUSES,
  EPAY_TEST_CREDENTIALS,
  EpayAnswerError,
  epayAmountText,
  epayFormFields,
  epayStatusUrl,
  kitStatusOfEpay,
  readEpayStatus,
  type EpayFormInput,
} from '../../../../src/providers/epay/wire.js';
import { PAYMENT_STATUSES } from '../../../../src/protocol/contract.js';

const { secretKey: SECRET, productCode: CODE } = EPAY_TEST_CREDENTIALS;
const nodeSign = (message: string, key: string = SECRET) => createHmac('sha256', Buffer.from(key, 'utf8')).update(message, 'utf8').digest('base64');
const INPUT: EpayFormInput = {
  amount: 100,
  taxAmount: 10,
  transactionUuid: '241028',
  productCode: CODE,
  successUrl: 'https://shop.example/esewa/success',
  failureUrl: 'https://shop.example/esewa/failure?order=A-1',
};

describe('constants', () => {
  test('the published UAT secret has no trailing "(", and the request signs three fields in eSewa\'s order', () => {
    assert.equal(EPAY_TEST_CREDENTIALS.secretKey, '8gBm/:&EnhH.1/q');
    assert.equal(EPAY_TEST_CREDENTIALS.productCode, 'EPAYTEST');
    assert.equal(EPAY_REQUEST_SIGNED_FIELDS, 'total_amount,transaction_uuid,product_code');
  });

  test('the hosts are the form URLs in full and the status bases', () => {
    assert.deepEqual(EPAY_HOSTS, {
      test: { form: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form', status: 'https://rc.esewa.com.np' },
      live: { form: 'https://epay.esewa.com.np/api/epay/main/v2/form', status: 'https://epay.esewa.com.np' },
    });
  });

  test('the seven statuses of the status table', () => {
    assert.deepEqual([...EPAY_STATUSES].sort(), ['AMBIGUOUS', 'CANCELED', 'COMPLETE', 'FULL_REFUND', 'NOT_FOUND', 'PARTIAL_REFUND', 'PENDING']);
  });
});

describe('epayAmountText', () => {
  test('a whole amount without decimals, anything else with two', () => {
    assert.equal(epayAmountText(110), '110');
    assert.equal(epayAmountText(0), '0');
    assert.equal(epayAmountText(110.5), '110.50');
    assert.equal(epayAmountText(110.05), '110.05');
    assert.equal(epayAmountText(0.01), '0.01');
    assert.equal(epayAmountText(2700), '2700');
    assert.equal(epayAmountText(1234567.89), '1234567.89');
  });

  test('float noise is whole paisa: 0.1 + 0.2 is 0.30, and 19.99 * 3 is 59.97', () => {
    assert.notEqual(0.1 + 0.2, 0.3);
    assert.equal(epayAmountText(0.1 + 0.2), '0.30');
    assert.equal(epayAmountText(1.1 + 2.2), '3.30');
    assert.equal(epayAmountText(19.99 * 3), '59.97');
    assert.equal(epayAmountText(4.35 * 100 / 100), '4.35');
  });

  test('any sum of amounts in whole paisa, added as float rupees, is written as its exact paisa', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000_000 }), { minLength: 1, maxLength: 4 }), (parts) => {
        const paisa = parts.reduce((sum, part) => sum + part, 0);
        const expected = paisa % 100 === 0 ? String(paisa / 100) : `${Math.floor(paisa / 100)}.${String(paisa % 100).padStart(2, '0')}`;
        assert.equal(epayAmountText(parts.reduce((sum, part) => sum + part / 100, 0)), expected);
      }),
      { numRuns: 2000 },
    );
  });

  test('refuses non-finite, negative and sub-paisa amounts, naming the value', () => {
    for (const bad of [Number.NaN, Infinity, -Infinity, -1, -0.01, 110.505, 0.001, 1e20]) {
      assert.throws(() => epayAmountText(bad), (error: unknown) => error instanceof TypeError && error.message.includes(String(bad)), String(bad));
    }
    assert.throws(() => epayAmountText('110' as unknown as number), TypeError);
  });
});

describe('epayFormFields', () => {
  test('eSewa\'s published example (vector 1): 100 + 10 tax, uuid 241028, signs as published', async () => {
    const fields = await epayFormFields(INPUT, SECRET);
    assert.deepEqual(fields, {
      amount: '100',
      tax_amount: '10',
      product_service_charge: '0',
      product_delivery_charge: '0',
      total_amount: '110',
      transaction_uuid: '241028',
      product_code: 'EPAYTEST',
      success_url: INPUT.successUrl,
      failure_url: INPUT.failureUrl,
      signed_field_names: 'total_amount,transaction_uuid,product_code',
      signature: 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=',
    });
    assert.equal(Object.keys(fields).length, 11);
  });

  test('the total is the sum in paisa, and the signature covers the very strings posted', async () => {
    const fields = await epayFormFields({ ...INPUT, amount: 0.1, taxAmount: 0.2, serviceCharge: 10.5, deliveryCharge: 99.99, transactionUuid: 'A-b-9' }, SECRET);
    assert.equal(fields.amount, '0.10');
    assert.equal(fields.tax_amount, '0.20');
    assert.equal(fields.product_service_charge, '10.50');
    assert.equal(fields.product_delivery_charge, '99.99');
    assert.equal(fields.total_amount, '110.79');
    assert.equal(fields.signature, nodeSign('total_amount=110.79,transaction_uuid=A-b-9,product_code=EPAYTEST'));
  });

  test('a whole total from fractional parts is written without decimals', async () => {
    const fields = await epayFormFields({ ...INPUT, amount: 99.5, taxAmount: 0.5 }, SECRET);
    assert.equal(fields.total_amount, '100');
    assert.equal(fields.signature, nodeSign('total_amount=100,transaction_uuid=241028,product_code=EPAYTEST'));
  });

  test('another secret gives another signature (the docs\' trailing "(" is another key)', async () => {
    const fields = await epayFormFields(INPUT, `${SECRET}(`);
    assert.notEqual(fields.signature, 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=');
    assert.equal(fields.signature, nodeSign('total_amount=110,transaction_uuid=241028,product_code=EPAYTEST', `${SECRET}(`));
  });

  test('refuses a bad uuid, an empty product code, relative URLs, bad amounts and an empty secret', async () => {
    const cases: Array<[Partial<EpayFormInput>, RegExp]> = [
      [{ transactionUuid: '' }, /transactionUuid/],
      [{ transactionUuid: 'order_1' }, /transactionUuid.*"order_1"/],
      [{ transactionUuid: 'a b' }, /transactionUuid/],
      [{ transactionUuid: 'x'.repeat(65) }, /transactionUuid/],
      [{ productCode: '' }, /productCode/],
      [{ productCode: '  ' }, /productCode/],
      [{ successUrl: '/esewa/success' }, /successUrl.*"\/esewa\/success"/],
      [{ failureUrl: 'shop.example/f' }, /failureUrl/],
      [{ failureUrl: 'javascript:alert(1)' }, /failureUrl/],
      [{ amount: -5 }, /-5/],
      [{ taxAmount: 1.234 }, /1\.234/],
      [{ deliveryCharge: Number.NaN }, /NaN/],
    ];
    for (const [change, message] of cases) {
      await assert.rejects(epayFormFields({ ...INPUT, ...change }, SECRET), (error: unknown) => error instanceof TypeError && message.test(error.message), JSON.stringify(change));
    }
    assert.equal((await epayFormFields({ ...INPUT, transactionUuid: 'x'.repeat(64) }, SECRET)).transaction_uuid?.length, 64);
    await assert.rejects(epayFormFields(INPUT, ''), /secret key is empty/);
  });
});

describe('epayStatusUrl', () => {
  test('the GET URL under a status base, amount without a comma, in the docs\' parameter order', () => {
    assert.equal(
      epayStatusUrl(EPAY_HOSTS.test.status, { productCode: 'EPAYTEST', totalAmount: '2,700.0', transactionUuid: 'a-1' }),
      'https://rc.esewa.com.np/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=2700.0&transaction_uuid=a-1',
    );
    assert.equal(
      epayStatusUrl(EPAY_HOSTS.live.status, { productCode: 'SHOP', totalAmount: 110.5, transactionUuid: '241028' }),
      'https://epay.esewa.com.np/api/epay/transaction/status/?product_code=SHOP&total_amount=110.50&transaction_uuid=241028',
    );
  });

  test('a base with a path keeps it, with or without its trailing slash, and values are encoded', () => {
    for (const base of ['http://127.0.0.1:4010/esewa', 'http://127.0.0.1:4010/esewa/']) {
      assert.equal(
        epayStatusUrl(base, { productCode: 'A&B', totalAmount: 100, transactionUuid: 'u' }),
        'http://127.0.0.1:4010/esewa/api/epay/transaction/status/?product_code=A%26B&total_amount=100&transaction_uuid=u',
      );
    }
  });

  test('refuses a relative base, a base with a query, and an amount that is none', () => {
    const query = { productCode: 'EPAYTEST', totalAmount: 100, transactionUuid: 'u' };
    assert.throws(() => epayStatusUrl('rc.esewa.com.np', query), /statusBase/);
    assert.throws(() => epayStatusUrl('https://rc.esewa.com.np/?x=1', query), /no query/);
    assert.throws(() => epayStatusUrl(EPAY_HOSTS.test.status, { ...query, totalAmount: 'ten' }), /totalAmount.*"ten"/);
    assert.throws(() => epayStatusUrl(EPAY_HOSTS.test.status, { ...query, totalAmount: -1 }), TypeError);
  });
});

describe('readEpayStatus', () => {
  test('the docs\' example answer', () => {
    assert.deepEqual(readEpayStatus('{"product_code":"EPAYTEST","transaction_uuid":"123","total_amount":100.0,"status":"COMPLETE","ref_id":"0001TS9"}'), {
      product_code: 'EPAYTEST',
      transaction_uuid: '123',
      total_amount: 100,
      status: 'COMPLETE',
      ref_id: '0001TS9',
    });
  });

  test('every status of the table; an amount as text with a comma; ref_id null or missing', () => {
    for (const status of EPAY_STATUSES) {
      assert.equal(readEpayStatus(JSON.stringify({ product_code: 'P', transaction_uuid: 'u', total_amount: 1, status, ref_id: null })).status, status);
    }
    const answer = readEpayStatus('{"product_code":"P","transaction_uuid":"u","total_amount":"2,700.0","status":"PENDING"}');
    assert.equal(answer.total_amount, 2700);
    assert.equal(answer.ref_id, null);
  });

  test('refuses what is not a status answer, each with its reason; eSewa\'s error keeps its message', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['<html>Forbidden</html>', 'not-json', /not JSON/],
      ['[1]', 'shape', /not a JSON object/],
      ['{"code":0,"error_message":"Service is currently unavailable"}', 'provider-error', /Service is currently unavailable/],
      ['{"product_code":"P","transaction_uuid":"u","total_amount":1,"status":"SUCCESS","ref_id":null}', 'unknown-status', /"SUCCESS"/],
      ['{"product_code":"P","transaction_uuid":"u","total_amount":1,"status":"complete"}', 'unknown-status', /"complete"/],
      ['{"transaction_uuid":"u","total_amount":1,"status":"COMPLETE"}', 'shape', /product_code/],
      ['{"product_code":"P","transaction_uuid":"u","total_amount":"lots","status":"COMPLETE"}', 'shape', /"lots"/],
      ['{"product_code":"P","transaction_uuid":"u","status":"COMPLETE"}', 'shape', /total_amount/],
      ['{"product_code":"P","transaction_uuid":"u","total_amount":1,"status":"COMPLETE","ref_id":7}', 'shape', /ref_id/],
    ];
    for (const [body, reason, message] of cases) {
      assert.throws(
        () => readEpayStatus(body),
        (error: unknown) => error instanceof EpayAnswerError && error.name === 'EpayAnswerError' && error.reason === reason && message.test(error.message),
        body,
      );
    }
    try {
      readEpayStatus('{"code":0,"error_message":"Service is currently unavailable"}');
      assert.fail('no error');
    } catch (error) {
      assert.equal((error as EpayAnswerError).providerCode, 0);
    }
  });
});

describe('kitStatusOfEpay', () => {
  test('maps each of the seven statuses; CANCELED after SUCCESS is a reversal', () => {
    const expected = {
      PENDING: ['PENDING', 'PENDING'],
      AMBIGUOUS: ['PENDING', 'PENDING'],
      COMPLETE: ['SUCCESS', 'SUCCESS'],
      NOT_FOUND: ['CANCELED', 'CANCELED'],
      CANCELED: ['CANCELED', 'REVERTED'],
      FULL_REFUND: ['REVERTED', 'REVERTED'],
      PARTIAL_REFUND: ['SUCCESS', 'SUCCESS'],
    } as const;
    for (const status of EPAY_STATUSES) {
      const [before, after] = expected[status];
      assert.equal(kitStatusOfEpay(status, { wasSuccess: false }), before, status);
      assert.equal(kitStatusOfEpay(status, { wasSuccess: true }), after, `${status} after SUCCESS`);
      assert.ok((PAYMENT_STATUSES as readonly string[]).includes(before));
    }
  });

  test('refuses a word that is no eSewa status', () => {
    assert.throws(() => kitStatusOfEpay('SUCCESS' as never, { wasSuccess: false }), /Not an eSewa status: "SUCCESS"/);
  });
});
