import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64Of, epayAmountText, epayError, epayKeyFor, EPAY_TEST_PRODUCT_CODE, EPAY_TEST_SECRET, paisaOf, plainAmount, successLocation } from '../../../../src/sandbox/epay/rules.js';

test("a product code's key: the sandbox's own codes use its access key, EPAYTEST the published secret, any other none", () => {
  const sandbox = { productCodes: ['SHOP', EPAY_TEST_PRODUCT_CODE], accessKey: 'own-key' };
  assert.equal(epayKeyFor('SHOP', sandbox), 'own-key');
  assert.equal(epayKeyFor(EPAY_TEST_PRODUCT_CODE, sandbox), 'own-key', 'a key of its own for EPAYTEST wins');
  assert.equal(epayKeyFor(EPAY_TEST_PRODUCT_CODE, { productCodes: ['SHOP'], accessKey: 'own-key' }), EPAY_TEST_SECRET);
  assert.equal(epayKeyFor('OTHER', sandbox), undefined);
});

test('amounts as posted become paisa, commas dropped; anything but a plain decimal of two places is refused', () => {
  const read: Array<[string, number]> = [['100', 10_000], ['110.5', 11_050], ['110.05', 11_005], ['2,700.0', 270_000], ['0', 0], ['0.01', 1]];
  for (const [text, paisa] of read) assert.equal(paisaOf(text), paisa, text);
  for (const text of ['', '01', '1.234', '-1', '1e3', ' 1', '1.', '.5', 'NaN', '99999999999999999']) assert.equal(paisaOf(text), undefined, text);
});

test('paisa are written with at least one decimal, and as eSewa writes total_amount with thousands separators', () => {
  assert.deepEqual([13_300, 13_350, 13_325, 5, 0].map(plainAmount), ['133.0', '133.5', '133.25', '0.05', '0.0']);
  assert.deepEqual([13_300, 270_000, 123_456_789].map(epayAmountText), ['133.0', '2,700.0', '1,234,567.89']);
  for (const paisa of [1, 99, 100, 13_350, 270_000]) assert.equal(paisaOf(epayAmountText(paisa)), paisa, 'reads back');
});

test('the success redirect glues ?data= on as eSewa does; the payload is standard base64 of UTF-8; errors keep eSewa\'s shape', () => {
  assert.equal(base64Of('{"a":"ü"}'), Buffer.from('{"a":"ü"}').toString('base64'));
  assert.equal(Buffer.from(base64Of('नमस्ते'), 'base64').toString('utf8'), 'नमस्ते');
  assert.equal(successLocation('https://shop.example/ok?x=1', 'ab+/='), 'https://shop.example/ok?x=1?data=ab+/=');
  assert.deepEqual(epayError('No such session.'), { error_message: 'No such session.', code: 0 });
});
