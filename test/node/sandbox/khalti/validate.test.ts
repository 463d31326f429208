import { test } from 'node:test';
import assert from 'node:assert/strict';
import { integerOf, MESSAGES, validateInitiate } from '../../../../src/sandbox/khalti/validate.js';

const GOOD = {
  return_url: 'https://shop.example/return',
  website_url: 'https://shop.example',
  amount: 1300,
  purchase_order_id: 'O-1',
  purchase_order_name: 'Tea',
};

test('a valid initiate is normalised, its kept extras carried as sent and anything else dropped', () => {
  const result = validateInitiate({
    ...GOOD,
    amount: '1300',
    purchase_order_id: 7,
    customer_info: { name: 'Sita' },
    amount_breakdown: [{ label: 'Tea', amount: 1000 }, { label: 'VAT', amount: '300' }],
    merchant_note: 'n',
    unknown: 'dropped',
  });
  assert.deepEqual(result, {
    ok: true,
    fields: {
      ...GOOD,
      purchase_order_id: '7',
      extras: { customer_info: { name: 'Sita' }, amount_breakdown: [{ label: 'Tea', amount: 1000 }, { label: 'VAT', amount: '300' }], merchant_note: 'n' },
    },
  });
});

test('each field is answered with its message, all at once', () => {
  const result = validateInitiate({ return_url: 'ftp://shop.example', website_url: '  ', amount: 999, purchase_order_name: null });
  assert.deepEqual(result, {
    ok: false,
    errors: {
      return_url: [MESSAGES.url],
      website_url: [MESSAGES.blank],
      amount: [MESSAGES.minimum],
      purchase_order_id: [MESSAGES.required],
      purchase_order_name: [MESSAGES.required],
    },
  });
  const amounts: Array<[unknown, string]> = [[undefined, MESSAGES.required], ['', MESSAGES.integer], [10.5, MESSAGES.integer], ['12a', MESSAGES.integer]];
  for (const [amount, message] of amounts) assert.deepEqual(validateInitiate({ ...GOOD, amount }), { ok: false, errors: { amount: [message] } }, String(amount));
  assert.deepEqual(validateInitiate({ ...GOOD, purchase_order_id: { id: 1 } }), { ok: false, errors: { purchase_order_id: ['Not a valid string.'] } });
  assert.deepEqual(validateInitiate({ ...GOOD, website_url: 'not a url' }), { ok: false, errors: { website_url: [MESSAGES.url] } });
});

test('a breakdown that does not add up, or is no list of amounts, is a mismatch', () => {
  for (const amount_breakdown of [[{ label: 'Tea', amount: 1000 }], [{ label: 'Tea', amount: 'x' }, 300], { total: 1300 }, 'none']) {
    assert.deepEqual(validateInitiate({ ...GOOD, amount_breakdown }), { ok: false, errors: { amount: [MESSAGES.breakdown] } }, JSON.stringify(amount_breakdown));
  }
});

test('a body that is no object is answered as a non-field error naming what it got', () => {
  assert.deepEqual(validateInitiate([GOOD]), { ok: false, errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] } });
  assert.deepEqual(validateInitiate('x'), { ok: false, errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got string.'] } });
  assert.deepEqual(validateInitiate(null), { ok: false, errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got object.'] } });
});

test('integerOf takes an integer as a number or as text, 1000.0 as 1000, and nothing else', () => {
  assert.equal(integerOf(1000), 1000);
  assert.equal(integerOf(' 1000 '), 1000);
  assert.equal(integerOf('1000.00'), 1000);
  assert.equal(integerOf('-5'), -5);
  for (const bad of [10.5, '10.5', '1e3', '', Number.MAX_SAFE_INTEGER + 2, null, true, [1]]) assert.equal(integerOf(bad), undefined, String(bad));
});
