/** What every stand-in page writes the same way: escaped text and amounts in rupees. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { amountText, escapeHtml } from '../../../src/sandbox/html.js';

test('amounts read as rupees, with two decimals and grouped thousands', () => {
  assert.equal(amountText(1000), 'NPR 1,000.00');
  assert.equal(amountText(0.5), 'NPR 0.50');
  assert.equal(amountText(999), 'NPR 999.00');
  assert.equal(amountText(1234567.8), 'NPR 1,234,567.80');
  assert.equal(amountText(999_999_999.99), 'NPR 999,999,999.99');
});

test('escapeHtml leaves no character that opens markup or closes a quoted attribute', () => {
  assert.equal(escapeHtml('<script>alert("x")</script>'), '&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
  assert.equal(escapeHtml("A&B 'c' `d`"), 'A&#38;B &#39;c&#39; &#96;d&#96;');
  assert.equal(escapeHtml(1250.5), '1250.5', 'a number is written as text');
  assert.equal(escapeHtml('भुक्तानी'), 'भुक्तानी', 'other text is kept');
});
