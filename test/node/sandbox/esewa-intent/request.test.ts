/** The sandbox's request checks as functions: parsing, the fields of each operation, a book's values, signatures. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authenticate, bookFields, checkFields, LIMITS, parseRequest, requireString, RequestError } from '../../../../src/sandbox/esewa-intent/request.js';
import { signatureMessage, signMessage, SIGNED_FIELDS } from '../../../../src/protocol/signature.js';

/** Asserts `run` throws a RequestError with `code` and a message matching `message`. */
async function refused(run: () => unknown, code: string, message: RegExp): Promise<void> {
  await assert.rejects(async () => run(), (error: unknown) => error instanceof RequestError && error.code === code && message.test(error.message));
}

const BOOK = {
  product_code: 'SHOP',
  amount: 1000.0,
  transaction_uuid: 'wpb_abc-1',
  signed_field_names: SIGNED_FIELDS.book,
  signature: '',
  callback_url: 'https://shop.example/cb',
  redirect_url: 'https://shop.example/return',
  properties: { order_id: 'O-1' },
};

/** A book body's text, `amount` written as `amountText`. */
const bookText = (overrides: Record<string, unknown> = {}, amountText = '1000.0') =>
  JSON.stringify({ ...BOOK, ...overrides }).replace(/"amount":[^,]+,/, `"amount":${amountText},`);

test('a body is a JSON object with the raw text of each member kept', async () => {
  const { body, rawMembers } = parseRequest(bookText());
  assert.equal(body['amount'], 1000);
  assert.equal(rawMembers.get('amount'), '1000.0');
  await refused(() => parseRequest('  '), 'IP-422', /^The request body is empty; send a JSON object\.$/);
  await refused(() => parseRequest('{"a":'), 'IP-422', /^The request body is not valid JSON\.$/);
  await refused(() => parseRequest('[]'), 'IP-422', /^The request body must be a JSON object; got an array\.$/);
  await refused(() => parseRequest('{"a":1,"a":2}'), 'IP-422', /^The request body is not a usable JSON object: The body names the field "a" more than once\.$/);
});

test("each operation's fields: a missing one refused, an unknown one reported, or refused when strict", async () => {
  assert.deepEqual(checkFields('status', { booking_id: 'B', product_code: 'P', correlation_id: 'C', signed_field_names: 's', signature: 'x', failure_url: 'u' }, false), ['failure_url']);
  await refused(() => checkFields('cancel', { booking_id: 'B' }, false), 'IP-422', /^Missing field\(s\) for cancel: product_code, signed_field_names, signature\.$/);
  await refused(() => checkFields('book', { ...BOOK, extra: 1 }, true), 'IP-422', /^Unexpected field\(s\) for book: extra\.$/);
  assert.equal(requireString({ id: 'B' }, 'id'), 'B');
  await refused(() => requireString({ id: 1 }, 'id'), 'IP-422', /^Field "id" must be a string; got number 1\.$/);
  await refused(() => requireString({ id: '' }, 'id'), 'IP-422', /^Field "id" is empty\.$/);
  await refused(() => requireString({ id: 'x'.repeat(LIMITS.maxIdLength + 1) }, 'id'), 'IP-422', /longer than 64 characters/);
});

test("a book's values: its amount as written, its ids, URLs and properties", async () => {
  const fields = (text: string, rules = {}) => {
    const { body, rawMembers } = parseRequest(text);
    return bookFields(body, rawMembers, rules);
  };
  assert.deepEqual(fields(bookText()), { product_code: 'SHOP', amount: 1000, transaction_uuid: 'wpb_abc-1', callback_url: 'https://shop.example/cb', redirect_url: 'https://shop.example/return', properties: { order_id: 'O-1' } });
  await refused(() => fields(bookText({}, '1e3')), 'IP-422', /^Field "amount" must be a positive number of at most 999999999\.99 with at most two decimals; got 1e3\.$/);
  await refused(() => fields(bookText({}, '10.005')), 'IP-422', /got 10\.005\.$/);
  await refused(() => fields(bookText({}, '0')), 'IP-422', /got 0\.$/);
  await refused(() => fields(bookText({}, '"1000"')), 'IP-422', /^Field "amount" must be a number; got a string "1000"\.$/);
  assert.equal(fields(bookText({}, '"1000.50"'), { stringAmounts: true }).amount, 1000.5, 'a string amount where the rules allow it');
  await refused(() => fields(bookText({ transaction_uuid: 'has space' })), 'IP-422', /^Field "transaction_uuid" must be 1 to 64 letters/);
  await refused(() => fields(bookText({ callback_url: 'ftp://shop.example/cb' })), 'IP-422', /^Field "callback_url" must be an absolute http\(s\) URL; got the scheme "ftp:"\.$/);
  await refused(() => fields(bookText({ callback_url: 'https://u:p@shop.example/cb' })), 'IP-422', /must not carry credentials/);
  await refused(() => fields(bookText({ redirect_url: 'shop://paid' })), 'IP-422', /got the scheme "shop:"/);
  assert.equal(fields(bookText({ redirect_url: 'shop://paid' }), { appSchemeRedirects: true }).redirect_url, 'shop://paid');
  await refused(() => fields(bookText({ redirect_url: 'javascript:alert(1)' }), { appSchemeRedirects: true }), 'IP-422', /got the scheme "javascript:"/);
  await refused(() => fields(bookText({ properties: { OrderId: 'x' } })), 'IP-422', /^Key "OrderId" of "properties" must be snake_case/);
  await refused(() => fields(bookText({ properties: { order_id: 1 } })), 'IP-422', /^Value of properties\.order_id must be a string; got number 1\.$/);
  await refused(() => fields(bookText({ properties: [] })), 'IP-422', /^Field "properties" must be an object; got an array\.$/);
  const many = Object.fromEntries(Array.from({ length: LIMITS.maxProperties + 1 }, (_, i) => [`k${i}`, 'v']));
  await refused(() => fields(bookText({ properties: many })), 'IP-422', /has more than 20 keys/);
});

test('a signature is checked over the amount as written, after the signed fields and the merchant', async () => {
  const signed = async (amountText: string) => {
    const values = { product_code: 'SHOP', amount: amountText, transaction_uuid: 'wpb_abc-1' };
    const signature = await signMessage(signatureMessage(values, SIGNED_FIELDS.book), 'key');
    return parseRequest(bookText({ signature }, amountText));
  };
  const good = await signed('1000.0');
  await authenticate('book', good.body, good.rawMembers, 'SHOP', new Set(['SHOP']), 'key');
  await refused(() => authenticate('book', good.body, good.rawMembers, 'SHOP', new Set(['SHOP']), 'other-key'), 'IP-400', /^Invalid Signature$/);
  const rewritten = { ...good, rawMembers: new Map(good.rawMembers).set('amount', '1000') };
  await refused(() => authenticate('book', good.body, rewritten.rawMembers, 'SHOP', new Set(['SHOP']), 'key'), 'IP-400', /Invalid Signature/);
  await refused(() => authenticate('book', good.body, good.rawMembers, 'SHOP', new Set(['OTHER']), 'key'), 'IP-401', /^Unknown product_code "SHOP": merchant authentication failed\.$/);
  await refused(() => authenticate('book', { ...good.body, signed_field_names: 'amount' }, good.rawMembers, 'SHOP', new Set(['SHOP']), 'key'), 'IP-423', /^signed_field_names must be ".*" for book; got "amount"\.$/);
});
