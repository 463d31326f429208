/**
 * Khalti's wire format as pure functions: amounts, bodies, headers, the readers of every answer the
 * docs show (samples copied from docs.khalti.com), and the status mapping.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  fromPaisa,
  KHALTI_HOSTS,
  KHALTI_MIN_PAISA,
  KhaltiAmountError,
  KhaltiAnswerError,
  KhaltiAuthError,
  khaltiHeaders,
  khaltiInitiateBody,
  KhaltiLimitError,
  KhaltiNotFoundError,
  khaltiRefundBody,
  kitStatusOfKhalti,
  readKhaltiInitiate,
  readKhaltiLookup,
  readKhaltiRefund,
  readKhaltiReturn,
  toPaisa,
} from '../../../../src/providers/khalti/wire.js';

describe('amounts', () => {
  test('rupees become exact integer paisa, float noise included; paisa go back to rupees', () => {
    assert.equal(toPaisa(10), 1000);
    assert.equal(toPaisa(12.5), 1250);
    assert.equal(toPaisa(1250.99), 125099);
    assert.equal(toPaisa(10.1 + 0.2), 1030);
    assert.equal(toPaisa((0.1 + 0.2) * 100), 3000);
    assert.equal(toPaisa(19.99), 1999);
    assert.equal(fromPaisa(1050), 10.5);
    assert.equal(fromPaisa(toPaisa(1234.56)), 1234.56);
  });

  test('below Rs 10, a third decimal, or not a number is refused before any call, naming the rule', () => {
    assert.equal(KHALTI_MIN_PAISA, 1000);
    assert.throws(() => toPaisa(9.99), (e: unknown) => e instanceof KhaltiAmountError && /minimum is Rs 10 \(1000 paisa\); got Rs 9.99/.test(e.message));
    assert.throws(() => toPaisa(0), /minimum is Rs 10/);
    assert.throws(() => toPaisa(10.005), /whole paisa \(at most two decimals\); got Rs 10.005/);
    assert.throws(() => toPaisa(Number.NaN), /finite number of rupees/);
    assert.throws(() => toPaisa('10' as unknown as number), /finite number of rupees/);
    assert.throws(() => fromPaisa(10.5), /Paisa must be an integer/);
  });
});

describe('requests', () => {
  test('hosts and headers are the documented ones', () => {
    assert.equal(KHALTI_HOSTS.test.api, 'https://dev.khalti.com/api/v2/');
    assert.equal(KHALTI_HOSTS.live.refund, 'https://khalti.com/api/merchant-transaction/');
    assert.deepEqual(khaltiHeaders('live_secret_key_abc'), { Authorization: 'Key live_secret_key_abc', 'content-type': 'application/json' });
    assert.throws(() => khaltiHeaders(''), /secretKey must be a non-empty string/);
  });

  test('the initiate body carries paisa as an integer and only the fields given', () => {
    const body = khaltiInitiateBody({ amount: 10.1 + 0.2, purchaseOrderId: 'o-1', purchaseOrderName: 'Tea', returnUrl: 'https://shop.example/return', websiteUrl: 'https://shop.example' });
    assert.deepEqual(body, { return_url: 'https://shop.example/return', website_url: 'https://shop.example', amount: 1030, purchase_order_id: 'o-1', purchase_order_name: 'Tea' });
    const full = khaltiInitiateBody({
      amount: 10,
      purchaseOrderId: 'o-2',
      purchaseOrderName: 'Tea',
      returnUrl: 'http://127.0.0.1:1/r',
      websiteUrl: 'http://127.0.0.1:1',
      customerInfo: { name: 'Ram', phone: '9800000001' },
      merchantExtra: 'cart 7',
    });
    assert.deepEqual(full.customer_info, { name: 'Ram', phone: '9800000001' });
    assert.equal(full.merchant_extra, 'cart 7');
  });

  test('an initiate Khalti would refuse is refused before the call', () => {
    const good = { amount: 10, purchaseOrderId: 'o', purchaseOrderName: 'n', returnUrl: 'https://a.example/r', websiteUrl: 'https://a.example' };
    assert.throws(() => khaltiInitiateBody({ ...good, amount: 5 }), KhaltiAmountError);
    assert.throws(() => khaltiInitiateBody({ ...good, returnUrl: 'shop/return' }), /returnUrl must be an absolute http\(s\) URL/);
    assert.throws(() => khaltiInitiateBody({ ...good, websiteUrl: 'ftp://a.example' }), /websiteUrl must be an absolute http\(s\) URL/);
    assert.throws(() => khaltiInitiateBody({ ...good, purchaseOrderName: ' ' }), /purchaseOrderName must be a non-empty string/);
  });

  test('refund bodies: empty for the whole amount, { amount } in paisa for part', () => {
    assert.deepEqual(khaltiRefundBody(), {});
    assert.deepEqual(khaltiRefundBody({ amountPaisa: 500 }), { amount: 500 });
    assert.throws(() => khaltiRefundBody({ amountPaisa: 5.5 }), /positive integer of paisa/);
    assert.throws(() => khaltiRefundBody({ amountPaisa: 0 }), /positive integer of paisa/);
  });
});

describe('initiate answers', () => {
  test('the docs\' success sample: expires_at (+05:45, microseconds) becomes epoch ms', () => {
    const answer = readKhaltiInitiate(
      200,
      '{"pidx":"bZQLD9wRVWo4CdESSfuSsB","payment_url":"https://test-pay.khalti.com/?pidx=bZQLD9wRVWo4CdESSfuSsB","expires_at":"2023-05-25T16:26:16.471649+05:45","expires_in":1800}',
    );
    assert.deepEqual(answer, {
      pidx: 'bZQLD9wRVWo4CdESSfuSsB',
      payment_url: 'https://test-pay.khalti.com/?pidx=bZQLD9wRVWo4CdESSfuSsB',
      expires_at: Date.parse('2023-05-25T10:41:16.471Z'),
      expires_in: 1800,
    });
  });

  test('validation errors keep Khalti\'s messages by field', () => {
    const error = (() => {
      try {
        readKhaltiInitiate(400, '{"amount":["Amount should be greater than Rs. 10, that is 1000 paisa."],"return_url":["Enter a valid URL."],"error_key":"validation_error"}');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    assert.ok(error instanceof KhaltiAnswerError);
    assert.equal(error.kind, 'validation');
    assert.equal(error.status, 400);
    assert.deepEqual(error.fields, { amount: ['Amount should be greater than Rs. 10, that is 1000 paisa.'], return_url: ['Enter a valid URL.'] });
    assert.match(error.message, /amount: Amount should be greater than Rs. 10.*return_url: Enter a valid URL./);
  });

  test('both 401 bodies name the fix: the Key header and the dashboard\'s (or sandbox\'s) key', () => {
    for (const body of ['{"detail":"Invalid token.","status_code":401}', '{"detail":"Authentication credentials were not provided.","status_code":401}']) {
      assert.throws(
        () => readKhaltiInitiate(401, body),
        (e: unknown) => e instanceof KhaltiAuthError && e.kind === 'auth' && /Authorization: Key <secret key>/.test(e.message) && /test-admin\.khalti\.com/.test(e.message) && /sandbox's access key/.test(e.message),
      );
    }
  });

  test('a 200 without the documented fields, or an HTML error page, is a named error', () => {
    assert.throws(() => readKhaltiInitiate(200, '{"pidx":"x"}'), (e: unknown) => e instanceof KhaltiAnswerError && e.kind === 'unexpected' && /not the documented shape/.test(e.message));
    assert.throws(() => readKhaltiInitiate(503, '<html>Service unavailable</html>'), (e: unknown) => e instanceof KhaltiAnswerError && e.kind === 'unexpected' && /503: <html>/.test(e.message));
  });

  test('a refusal that speaks of KYC or a limit surfaces as the new-account cap (a guess on words, said so)', () => {
    assert.throws(
      () => readKhaltiInitiate(400, '{"detail":"Transaction amount exceeds the limit for unverified (KYC) merchants.","error_key":"validation_error"}'),
      (e: unknown) => e instanceof KhaltiLimitError && e.kind === 'limit' && /NPR 200 per transaction until its KYC is done/.test(e.message) && /Khalti documents no body/.test(e.message),
    );
  });
});

describe('lookup answers', () => {
  test('the docs\' sample, and HTTP 400 Expired / User canceled read as answers, not errors', () => {
    assert.deepEqual(readKhaltiLookup(200, '{"pidx":"HT6o6PEZRWFJ5ygavzHWd5","total_amount":1000,"status":"Completed","transaction_id":"GFq9PFS7b2iYvL8Lir9oXe","fee":0,"refunded":false}'), {
      pidx: 'HT6o6PEZRWFJ5ygavzHWd5',
      total_amount: 1000,
      status: 'Completed',
      transaction_id: 'GFq9PFS7b2iYvL8Lir9oXe',
      fee: 0,
      refunded: false,
    });
    for (const status of ['Expired', 'User canceled']) {
      const answer = readKhaltiLookup(400, JSON.stringify({ pidx: 'p', total_amount: 1000, status, transaction_id: null, fee: 0, refunded: false }));
      assert.equal(answer.status, status);
      assert.equal(answer.transaction_id, null);
      assert.equal(kitStatusOfKhalti(answer.status), 'CANCELED');
    }
    assert.equal(readKhaltiLookup(200, '{"pidx":"p","total_amount":1000,"status":"Refunded","transaction_id":"t","fee":0,"refunded":true}').refunded, true);
  });

  test('Not found. is a named not-found error; a 401 an auth error; a 400 without a status a validation error', () => {
    assert.throws(() => readKhaltiLookup(404, '{"detail":"Not found.","error_key":"validation_error"}'), (e: unknown) => e instanceof KhaltiNotFoundError && /no such payment \(pidx\)/.test(e.message));
    assert.throws(() => readKhaltiLookup(400, '{"detail":"Not found.","error_key":"validation_error"}'), KhaltiNotFoundError);
    assert.throws(() => readKhaltiLookup(401, '{"detail":"Invalid token.","status_code":401}'), KhaltiAuthError);
    assert.throws(() => readKhaltiLookup(400, '{"pidx":["This field is required."],"error_key":"validation_error"}'), (e: unknown) => e instanceof KhaltiAnswerError && e.kind === 'validation');
    assert.throws(() => readKhaltiLookup(200, 'not json'), /not the documented shape/);
    assert.throws(() => readKhaltiLookup(200, '{"pidx":"p","status":"Completed"}'), /not the documented shape/);
  });
});

describe('the status mapping', () => {
  test('every documented status, both spellings of the partial refund, and the unknown', () => {
    const expected: Record<string, string> = {
      Initiated: 'BOOKED',
      Pending: 'PENDING',
      Completed: 'SUCCESS',
      Expired: 'CANCELED',
      'User canceled': 'CANCELED',
      Refunded: 'REVERTED',
      'Partially Refunded': 'SUCCESS',
      'Partially refunded': 'SUCCESS',
      Failed: 'FAILED',
      Canceled: 'CANCELED',
      'Ambiguous New Thing': 'PENDING',
      '': 'PENDING',
    };
    for (const [khalti, kit] of Object.entries(expected)) assert.equal(kitStatusOfKhalti(khalti), kit, khalti);
  });
});

describe('the return', () => {
  test('the docs\' success sample reads as a hint', () => {
    const hint = readKhaltiReturn(
      new URLSearchParams('pidx=bZQLD9wRVWo4CdESSfuSsB&txnId=4H7AhoXDJWg5WjrcPT9ixW&amount=1000&total_amount=1000&status=Completed&mobile=98XXXXX904&tidx=4H7AhoXDJWg5WjrcPT9ixW&purchase_order_id=test12&purchase_order_name=test&transaction_id=4H7AhoXDJWg5WjrcPT9ixW'),
    );
    assert.deepEqual(hint, {
      pidx: 'bZQLD9wRVWo4CdESSfuSsB',
      status: 'Completed',
      purchase_order_id: 'test12',
      purchase_order_name: 'test',
      amount: 1000,
      total_amount: 1000,
      transaction_id: '4H7AhoXDJWg5WjrcPT9ixW',
      mobile: '98XXXXX904',
    });
  });

  test('a cancel\'s empty parameters are null; tidx stands in for a missing transaction_id; junk amounts are null', () => {
    const cancel = readKhaltiReturn(new URLSearchParams('pidx=p&transaction_id=&tidx=&amount=1000&total_amount=1000&mobile=&status=User%20canceled&purchase_order_id=o&purchase_order_name=n'));
    assert.equal(cancel.status, 'User canceled');
    assert.equal(cancel.transaction_id, null);
    assert.equal(cancel.mobile, null);
    assert.equal(readKhaltiReturn(new URLSearchParams('tidx=T1')).transaction_id, 'T1');
    assert.equal(readKhaltiReturn(new URLSearchParams('txnId=T2')).transaction_id, 'T2');
    assert.equal(readKhaltiReturn(new URLSearchParams('amount=10.5')).amount, null);
    assert.equal(readKhaltiReturn(new URLSearchParams('')).pidx, null);
  });
});

describe('refund answers', () => {
  test('success, refusals by kind, and the cap', () => {
    assert.deepEqual(readKhaltiRefund(200, '{"detail": "Transaction refund successful."}'), { detail: 'Transaction refund successful.' });
    assert.throws(() => readKhaltiRefund(401, '{"detail":"Invalid token.","status_code":401}'), KhaltiAuthError);
    assert.throws(() => readKhaltiRefund(404, '{"detail":"Not found."}'), (e: unknown) => e instanceof KhaltiNotFoundError && /refund \(transaction_id\)/.test(e.message));
    assert.throws(() => readKhaltiRefund(400, '{"detail":"Amount exceeds the per-transaction limit of NPR 200."}'), KhaltiLimitError);
    for (const detail of ['Refund amount exceeds the refundable amount.', 'Already refunded.', 'Amount exceeds the limit of 2000.']) {
      assert.throws(() => readKhaltiRefund(400, JSON.stringify({ detail })), (e: unknown) => e instanceof KhaltiAnswerError && !(e instanceof KhaltiLimitError) && e.message.includes(detail), detail);
    }
    assert.throws(() => readKhaltiRefund(200, '[]'), /not the documented shape/);
  });
});
