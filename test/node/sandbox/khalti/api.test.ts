/**
 * The Khalti emulation's refusals over loopback HTTP: Khalti's 401 bodies on every endpoint, its
 * validation errors and their shapes, the minimum, lookup's not-found, transport refusals, and
 * chaos's faults on these API calls.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { KhaltiAnswerError, KhaltiAuthError, KhaltiNotFoundError, readKhaltiInitiate, readKhaltiLookup } from '../../../../src/providers/khalti/wire.js';
import { getPage, initiate, initiateBody, khaltiPost, LIMIT_MS, lookup, submitPage } from './support.js';

const INITIATE = '/api/v2/epayment/initiate/';

describe('Khalti API refusals', () => {
  let sandbox: Sandbox;
  let refundPath = '';
  before(async () => {
    sandbox = await startSandbox({ accessKey: 'live_secret_key_sandbox' });
  });
  after(() => sandbox.close());

  test('every endpoint wants Authorization: Key <access key>, with Khalti\'s two 401 bodies otherwise', async () => {
    const { pidx } = await initiate(sandbox.baseUrl, {}, { authorization: 'key live_secret_key_sandbox', 'content-type': 'application/json' });
    await submitPage(sandbox.baseUrl, pidx);
    refundPath = `/api/merchant-transaction/${String((await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/lookup/', { pidx }, { key: 'live_secret_key_sandbox' })).json['transaction_id'])}/refund/`;
    const notProvided = { detail: 'Authentication credentials were not provided.', status_code: 401 };
    const invalid = { detail: 'Invalid token.', status_code: 401 };
    for (const path of [INITIATE, '/api/v2/epayment/lookup/', refundPath]) {
      const cases: Array<[Record<string, string>, unknown]> = [
        [{ 'content-type': 'application/json' }, notProvided],
        [{ 'content-type': 'application/json', authorization: 'live_secret_key_sandbox' }, notProvided],
        [{ 'content-type': 'application/json', authorization: 'Bearer live_secret_key_sandbox' }, notProvided],
        [{ 'content-type': 'application/json', authorization: 'Key test_secret_key_old' }, invalid],
      ];
      for (const [headers, expected] of cases) {
        const answer = await khaltiPost(sandbox.baseUrl, path, path === INITIATE ? initiateBody() : { pidx }, { headers });
        assert.equal(answer.status, 401, `${path} ${JSON.stringify(headers)}`);
        assert.deepEqual(answer.json, expected);
      }
    }
    const refused = await khaltiPost(sandbox.baseUrl, INITIATE, initiateBody(), { key: 'wrong' });
    assert.throws(() => readKhaltiInitiate(refused.status, refused.text), (e: unknown) => e instanceof KhaltiAuthError && /sandbox's access key/.test(e.message));
    assert.equal((await lookup(sandbox.baseUrl, pidx)).status, 401, 'the default key is not this sandbox\'s');
    assert.equal((await khaltiPost(sandbox.baseUrl, refundPath, undefined, { key: 'live_secret_key_sandbox' })).status, 200, 'the refund went through with the key');
  });

  test('Khalti\'s validation errors: blank, bad URL, under 1000 paisa, non-integer, breakdown off, absent', async () => {
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ purchase_order_name: '' }, { purchase_order_name: ['This field may not be blank.'] }],
      [{ purchase_order_id: '  ' }, { purchase_order_id: ['This field may not be blank.'] }],
      [{ return_url: 'shop/return', website_url: 'javascript:alert(1)' }, { return_url: ['Enter a valid URL.'], website_url: ['Enter a valid URL.'] }],
      [{ amount: 999 }, { amount: ['Amount should be greater than Rs. 10, that is 1000 paisa.'] }],
      [{ amount: 12.5 }, { amount: ['A valid integer is required.'] }],
      [{ amount: '12.50' }, { amount: ['A valid integer is required.'] }],
      [{ amount: 'ten' }, { amount: ['A valid integer is required.'] }],
      [{ amount: 1500, amount_breakdown: [{ label: 'Mark price', amount: 1000 }, { label: 'VAT', amount: 300 }] }, { amount: ['Amount Breakdown mismatch.'] }],
      [{ purchase_order_id: undefined, amount: null }, { amount: ['This field is required.'], purchase_order_id: ['This field is required.'] }],
    ];
    for (const [over, expected] of cases) {
      const answer = await khaltiPost(sandbox.baseUrl, INITIATE, initiateBody(over), { key: 'live_secret_key_sandbox' });
      assert.equal(answer.status, 400, JSON.stringify(over));
      assert.deepEqual(answer.json, { ...expected, error_key: 'validation_error' }, JSON.stringify(over));
      assert.throws(() => readKhaltiInitiate(answer.status, answer.text), (e: unknown) => e instanceof KhaltiAnswerError && e.kind === 'validation');
    }
  });

  test('accepted as Khalti accepts them: "1000" as a string, 1000 exactly, a breakdown that adds up, merchant_* extras', async () => {
    for (const over of [{ amount: '1000' }, { amount: 1000 }, { amount: 1300, amount_breakdown: [{ label: 'Mark price', amount: 1000 }, { label: 'VAT', amount: 300 }], merchant_extra: 'x', customer_info: { name: 'Ram' } }]) {
      const answer = await khaltiPost(sandbox.baseUrl, INITIATE, initiateBody(over), { key: 'live_secret_key_sandbox' });
      assert.equal(answer.status, 200, `${JSON.stringify(over)}: ${answer.text}`);
    }
  });

  test('lookup: no pidx is a validation error, an unknown one "Not found."', async () => {
    const none = await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/lookup/', {}, { key: 'live_secret_key_sandbox' });
    assert.deepEqual([none.status, none.json], [400, { pidx: ['This field is required.'], error_key: 'validation_error' }]);
    const unknown = await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/lookup/', { pidx: 'nope' }, { key: 'live_secret_key_sandbox' });
    assert.deepEqual([unknown.status, unknown.json], [404, { detail: 'Not found.', error_key: 'validation_error' }]);
    assert.throws(() => readKhaltiLookup(unknown.status, unknown.text), KhaltiNotFoundError);
  });

  test('transport: GET is 405, a non-JSON body 415, broken JSON 400; the pay page takes only its form', async () => {
    const get = await getPage(`${sandbox.baseUrl}${INITIATE}`);
    assert.deepEqual([get.status, get.json['detail'], get.headers.get('allow')], [405, 'Method "GET" not allowed.', 'POST']);
    const form = await khaltiPost(sandbox.baseUrl, INITIATE, 'amount=1000', { headers: { authorization: 'Key live_secret_key_sandbox', 'content-type': 'application/x-www-form-urlencoded' } });
    assert.equal(form.status, 415);
    const broken = await khaltiPost(sandbox.baseUrl, INITIATE, '{"amount":', { key: 'live_secret_key_sandbox' });
    assert.equal(broken.status, 400);
    assert.match(String(broken.json['detail']), /^JSON parse error/);
    const page = await fetch(`${sandbox.baseUrl}/khalti/pay/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', signal: AbortSignal.timeout(LIMIT_MS) });
    assert.equal(page.status, 415);
    await page.arrayBuffer();
  });

  test('more refusals: a body over 64 KiB, a refund of a Pending payment or of no whole paisa, the page\'s other methods and unknown pidx', async () => {
    const big = await khaltiPost(sandbox.baseUrl, INITIATE, initiateBody({ merchant_extra: 'x'.repeat(70 * 1024) }), { key: 'live_secret_key_sandbox' });
    assert.equal(big.status, 413);
    const { pidx } = await initiate(sandbox.baseUrl, { amount: 8002 }, { authorization: 'Key live_secret_key_sandbox', 'content-type': 'application/json' });
    await submitPage(sandbox.baseUrl, pidx);
    const txn = String((await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/lookup/', { pidx }, { key: 'live_secret_key_sandbox' })).json['transaction_id']);
    const pending = await khaltiPost(sandbox.baseUrl, `/api/merchant-transaction/${txn}/refund/`, undefined, { key: 'live_secret_key_sandbox' });
    assert.deepEqual([pending.status, pending.json['detail']], [400, 'Only a Completed payment can be refunded; this one is Pending.']);
    const paid = await initiate(sandbox.baseUrl, {}, { authorization: 'Key live_secret_key_sandbox', 'content-type': 'application/json' });
    await submitPage(sandbox.baseUrl, paid.pidx);
    const paidTxn = String((await khaltiPost(sandbox.baseUrl, '/api/v2/epayment/lookup/', { pidx: paid.pidx }, { key: 'live_secret_key_sandbox' })).json['transaction_id']);
    const fraction = await khaltiPost(sandbox.baseUrl, `/api/merchant-transaction/${paidTxn}/refund/`, { amount: 50.5 }, { key: 'live_secret_key_sandbox' });
    assert.deepEqual([fraction.status, fraction.json], [400, { amount: ['A valid integer is required.'], error_key: 'validation_error' }]);
    const malformed = await khaltiPost(sandbox.baseUrl, '/api/merchant-transaction/%E0%A4%A/refund/', undefined, { key: 'live_secret_key_sandbox' });
    assert.equal(malformed.status, 404);
    const put = await fetch(`${sandbox.baseUrl}/khalti/pay/`, { method: 'PUT', signal: AbortSignal.timeout(LIMIT_MS) });
    assert.deepEqual([put.status, put.headers.get('allow')], [405, 'GET, POST']);
    await put.arrayBuffer();
    assert.equal((await submitPage(sandbox.baseUrl, 'nope')).status, 404);
    assert.equal((await submitPage(sandbox.baseUrl, 'nope', { action: 'cancel' })).status, 404);
  });
});

describe('chaos on the Khalti API', () => {
  let sandbox: Sandbox;
  const lines: string[] = [];
  before(async () => {
    sandbox = await startSandbox({ chaos: { errors: 1, seed: 3 }, log: (line) => lines.push(line) });
  });
  after(() => sandbox.close());

  test('a drawn error answers the initiate 503 without making a payment; the controls are untouched', async () => {
    const answer = await khaltiPost(sandbox.baseUrl, INITIATE, initiateBody());
    assert.equal(answer.status, 503);
    assert.throws(() => readKhaltiInitiate(answer.status, answer.text), (e: unknown) => e instanceof KhaltiAnswerError && e.kind === 'unexpected');
    assert.ok(lines.some((line) => /chaos #1 \(seed 3\) service POST \/api\/v2\/epayment\/initiate\/: error/.test(line)), lines.join('\n'));
    assert.ok(!lines.some((line) => line.startsWith('khalti initiate')), 'the handler did not run');
    assert.equal((await getPage(`${sandbox.baseUrl}/sandbox/khalti/scenarios`)).status, 200);
  });
});
