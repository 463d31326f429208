/**
 * ePay v2's form endpoint on the sandbox: every refusal with eSewa's body where one is known, the key
 * rule (EPAYTEST with eSewa's published secret), and the login page it answers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { EPAY_TEST_SECRET, epayAmountText, epayKeyFor, paisaOf, plainAmount } from '../../../../src/sandbox/epay/rules.js';
import { PUBLISHED_KEY, epayForm, hmac, postEpay } from './support.js';

describe('ePay v2 form endpoint', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: ['SHOP01'], accessKey: 'shop-key' });
  });
  after(() => sandbox.close());

  test('the key rule: own product codes use the access key; EPAYTEST without one uses the published secret; others have none', () => {
    assert.equal(EPAY_TEST_SECRET, PUBLISHED_KEY);
    assert.equal(epayKeyFor('SHOP01', { productCodes: ['SHOP01'], accessKey: 'k' }), 'k');
    assert.equal(epayKeyFor('EPAYTEST', { productCodes: ['SHOP01'], accessKey: 'k' }), PUBLISHED_KEY);
    assert.equal(epayKeyFor('EPAYTEST', { productCodes: ['EPAYTEST'], accessKey: 'k' }), 'k', 'a key of its own wins');
    assert.equal(epayKeyFor('OTHER', { productCodes: ['SHOP01'], accessKey: 'k' }), undefined);
  });

  test('amounts as eSewa writes them: one decimal, a thousands separator from 1,000; commas read back', () => {
    assert.deepEqual([13_300, 270_000, 99_900, 100_000, 13_350, 13_325, 123_456_700].map(epayAmountText), ['133.0', '2,700.0', '999.0', '1,000.0', '133.5', '133.25', '1,234,567.0']);
    assert.equal(plainAmount(270_000), '2700.0');
    assert.deepEqual(['100', '110.5', '2,700.0', '0.01', '1e3', '10.125', '', '-1'].map(paisaOf), [10_000, 11_050, 270_000, 1, undefined, undefined, undefined, undefined]);
  });

  test("eSewa's docs example, copied unchanged, opens the login page with EPAYTEST and the published signature", async () => {
    const fields = epayForm({ amount: '100', tax: '10', total: '110', uuid: `241028-${Date.now()}` });
    const page = await postEpay(sandbox.baseUrl, fields);
    assert.equal(page.status, 200, page.text);
    // Vector 1 of the provider notes, reproduced by the sandbox's check.
    assert.equal(hmac('total_amount=110,transaction_uuid=241028,product_code=EPAYTEST', PUBLISHED_KEY), 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=');
    const vector = await postEpay(sandbox.baseUrl, epayForm({ amount: '100', tax: '10', total: '110', uuid: '241028' }));
    assert.equal(vector.status, 200, vector.text);
    assert.match(vector.text, /<form method="post" action="\/epay\/session\/ES-[^"]+\/pay"/);
  });

  test('the login page: product code, amount, test IDs, password and token, under strict page headers', async () => {
    const page = await postEpay(sandbox.baseUrl, epayForm({ product: 'SHOP01', key: 'shop-key', amount: '2700' }));
    assert.equal(page.status, 200, page.text);
    assert.match(page.response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.response.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    assert.equal(page.response.headers.get('x-content-type-options'), 'nosniff');
    for (const text of ['SHOP01', 'NPR 2,700.00', '9806800001', '9806800005', 'Nepal@123', '123456']) assert.ok(page.text.includes(text), `the page shows ${text}`);
    assert.doesNotMatch(page.text, /<script/);
    assert.ok(!page.text.includes('shop-key'), 'never the key');
  });

  test('a plain GET answers the "Service is currently unavailable" body', async () => {
    const response = await fetch(`${sandbox.baseUrl}/api/epay/main/v2/form`);
    assert.equal(response.status, 405);
    assert.deepEqual(await response.json(), { error_message: 'Service is currently unavailable. Please try again later.', code: 0 });
  });

  test('an unknown product code: "Unable to fetch merchant key"', async () => {
    const answer = await postEpay(sandbox.baseUrl, epayForm({ product: 'NOPE', key: 'shop-key' }));
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.text), { error_message: 'Unable to fetch merchant key. Please try again later.', code: 0 });
  });

  test('a bad signature, or one over other strings than posted ("110.00" for "110"), or with another key: ES104', async () => {
    const uuid = `t-${Date.now()}`;
    const cases = [
      epayForm({}, { signature: 'AAAA' }),
      epayForm({ total: '110', amount: '110', uuid }, { signature: hmac(`total_amount=110.00,transaction_uuid=${uuid},product_code=EPAYTEST`, PUBLISHED_KEY) }),
      epayForm({ key: 'shop-key' }),
      epayForm({ key: `${PUBLISHED_KEY}(` }),
    ];
    for (const fields of cases) {
      const answer = await postEpay(sandbox.baseUrl, fields);
      assert.equal(answer.status, 400);
      assert.deepEqual(JSON.parse(answer.text), { error_message: 'Invalid payload signature', code: 'ES104' });
    }
  });

  test('every field present and non-empty; signed_field_names exact; amounts summed; uuid and URLs well formed', async () => {
    const refusals: Array<[Record<string, string>, RegExp]> = [
      [epayForm({}, { tax_amount: undefined }), /Missing or empty field\(s\): tax_amount/],
      [epayForm({}, { product_delivery_charge: '' }), /Missing or empty field\(s\): product_delivery_charge/],
      [epayForm({}, { success_url: undefined, signature: undefined }), /success_url, signature/],
      [epayForm({}, { signed_field_names: 'transaction_uuid,total_amount,product_code' }), /signed_field_names must be "total_amount,transaction_uuid,product_code"/],
      [epayForm({ amount: '100', tax: '10', total: '100' }), /must equal amount \+ tax_amount/],
      [epayForm({ amount: '1e2', total: '100' }), /not a plain decimal.*: amount/],
      [epayForm({ amount: '0', total: '0' }), /more than 0/],
      [epayForm({ uuid: 'a_b' }), /letters, digits and "-" only/],
      [epayForm({ failureUrl: 'javascript:alert(1)' }), /failure_url must be absolute http\(s\) URLs/],
    ];
    for (const [fields, message] of refusals) {
      const answer = await postEpay(sandbox.baseUrl, fields);
      assert.equal(answer.status, 400, answer.text);
      const body = JSON.parse(answer.text) as { error_message: string; code: number };
      assert.match(body.error_message, message);
      assert.equal(body.code, 0);
    }
    const twice = await fetch(`${sandbox.baseUrl}/api/epay/main/v2/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `${new URLSearchParams(epayForm())}&amount=5`,
    });
    assert.match(((await twice.json()) as { error_message: string }).error_message, /more than once: amount/);
    const json = await fetch(`${sandbox.baseUrl}/api/epay/main/v2/form`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(epayForm()) });
    assert.equal(json.status, 400);
    assert.match(((await json.json()) as { error_message: string }).error_message, /application\/x-www-form-urlencoded/);
  });

  test('a reused transaction_uuid with other content is refused; the same content opens the same session again', async () => {
    const uuid = `reuse-${Date.now()}`;
    const first = await postEpay(sandbox.baseUrl, epayForm({ uuid, amount: '100' }));
    assert.equal(first.status, 200);
    const again = await postEpay(sandbox.baseUrl, epayForm({ uuid, amount: '100' }));
    assert.equal(again.status, 200);
    const session = (text: string) => /\/epay\/session\/(ES-[^/"]+)\//.exec(text)?.[1];
    assert.equal(session(again.text), session(first.text));
    const other = await postEpay(sandbox.baseUrl, epayForm({ uuid, amount: '200' }));
    assert.equal(other.status, 400);
    assert.match((JSON.parse(other.text) as { error_message: string }).error_message, new RegExp(`"${uuid}" was already used with other content`));
  });
});
