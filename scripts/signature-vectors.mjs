// Writes signature-vectors.json: the signed messages of the payment service (book, status, cancel,
// callback, and the desktop path's web payment form) with their fields, the exact message, the key and the expected signature, and messages
// that must not verify. Computed here with node:crypto, independently of the kit; the kit's tests and
// both example proxies' tests read the file. Run: node scripts/signature-vectors.mjs
import { createHmac } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { writeFileSync } from 'node:fs';

const KEY = 'sandbox-access-key';
const sign = (message, key = KEY) => createHmac('sha256', Buffer.from(key, 'utf8')).update(Buffer.from(message, 'utf8')).digest('base64');
const FIELDS = {
  book: 'product_code,amount,transaction_uuid',
  status: 'booking_id,product_code,correlation_id',
  cancel: 'booking_id,product_code',
  callback: 'product_code,amount,reference_code,correlation_id,status',
};

/** Fields hold each value exactly as the message writes it (a number's digits as in the body). */
function vector(id, operation, fields, body, note) {
  const names = FIELDS[operation];
  const message = names.split(',').map((name) => `${name}=${fields[name]}`).join(',');
  return { id, operation, signed_field_names: names, key: KEY, fields, ...(body ? { body } : {}), message, message_utf8_hex: Buffer.from(message, 'utf8').toString('hex'), signature: sign(message), ...(note ? { note } : {}) };
}

/** A book body: its signature is filled in once the vector is signed. */
const bookBody = (amount, uuid, properties = { order_id: 'A-1001' }) =>
  `{"product_code":"SANDBOX","amount":${amount},"transaction_uuid":"${uuid}","signed_field_names":"${FIELDS.book}","signature":"SIGNATURE","callback_url":"https://shop.example/api/pay/callback","redirect_url":"https://shop.example/checkout","properties":${JSON.stringify(properties)}}`;

const vectors = [
  vector('book-amount-1000', 'book', { product_code: 'SANDBOX', amount: '1000', transaction_uuid: 'wpb_3f2a9c1e' }, bookBody('1000', 'wpb_3f2a9c1e')),
  vector('book-amount-1000.0', 'book', { product_code: 'SANDBOX', amount: '1000.0', transaction_uuid: 'wpb_3f2a9c1e' }, bookBody('1000.0', 'wpb_3f2a9c1e'),
    'The same amount as 1000, written 1000.0 in the body: it is signed as written, so the signature differs.'),
  vector('book-amount-250.5', 'book', { product_code: 'SANDBOX', amount: '250.5', transaction_uuid: 'wpb_77d0e4b2' }, bookBody('250.5', 'wpb_77d0e4b2')),
  vector('book-non-ascii-properties', 'book', { product_code: 'SANDBOX', amount: '1250.5', transaction_uuid: 'wpb_0b5c6d7e' },
    bookBody('1250.5', 'wpb_0b5c6d7e', { item: 'Momo thali — ५ प्लेट', shop: 'Café Zürich' }),
    'properties are shown to the shopper but not signed: non-ASCII values there do not change the signature.'),
  vector('status', 'status', { booking_id: 'BK-6c1f4e2a-8b7d-4c3e-9f10-2a3b4c5d6e7f', product_code: 'SANDBOX', correlation_id: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff' }),
  vector('cancel', 'cancel', { booking_id: 'BK-6c1f4e2a-8b7d-4c3e-9f10-2a3b4c5d6e7f', product_code: 'SANDBOX' }),
  vector('callback-amount-1000', 'callback',
    { product_code: 'SANDBOX', amount: '1000', reference_code: 'REF-0123456789abcdef', correlation_id: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff', status: 'SUCCESS' }),
  vector('callback-amount-1000.0', 'callback',
    { product_code: 'SANDBOX', amount: '1000.0', reference_code: 'REF-0123456789abcdef', correlation_id: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff', status: 'SUCCESS' }),
  vector('callback-amount-250.5', 'callback',
    { product_code: 'SANDBOX', amount: '250.5', reference_code: 'REF-fedcba9876543210', correlation_id: '0f1e2d3c-4b5a-4697-8877-665544332211', status: 'FAILED' }),
  vector('callback-non-ascii', 'callback',
    { product_code: 'SANDBOX', amount: '250.5', reference_code: 'REF-नमस्ते-Café', correlation_id: '0f1e2d3c-4b5a-4697-8877-665544332211', status: 'SUCCESS' },
    undefined, 'The message is UTF-8 encoded before the HMAC: "é" is the bytes c3 a9.'),
];
for (const v of vectors.filter((v) => v.operation === 'book')) v.body = v.body.replace('"SIGNATURE"', JSON.stringify(v.signature));
for (const v of vectors.filter((v) => v.operation === 'callback')) {
  const amount = v.fields.amount;
  v.body = `{"product_code":"${v.fields.product_code}","amount":${amount},"reference_code":${JSON.stringify(v.fields.reference_code)},"correlation_id":"${v.fields.correlation_id}","status":"${v.fields.status}","signed_field_names":"${FIELDS.callback}","signature":"${v.signature}"}`;
}

const base = vectors.find((v) => v.id === 'callback-amount-1000.0');
const book = vectors.find((v) => v.id === 'book-amount-1000');
const mustFail = [
  { id: 'field-out-of-order', key: KEY, message: book.message.split(',').reverse().join(','), signature: book.signature, why: 'The fields must be in the order of signed_field_names.' },
  { id: 'space-after-comma', key: KEY, message: book.message.replaceAll(',', ', '), signature: book.signature, why: 'The pairs are joined by "," with no space.' },
  { id: 'changed-amount', key: KEY, message: book.message.replace('amount=1000', 'amount=1001'), signature: book.signature, why: 'A changed value breaks the signature.' },
  { id: 'amount-rewritten', key: KEY, message: base.message.replace('amount=1000.0', 'amount=1000'), signature: base.signature,
    why: 'The body said 1000.0: re-serialising the parsed number as 1000 is a different message.' },
  { id: 'wrong-key', key: 'not-the-access-key', message: book.message, signature: book.signature, why: 'Another key gives another signature.' },
  { id: 'url-safe-base64', key: KEY, message: base.message, signature: base.signature.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
    why: 'The signature is standard base64 with padding; another alphabet or no padding does not match.' },
].map((c) => ({ ...c, expected_signature: sign(c.message, c.key) }));
for (const c of mustFail) if (c.expected_signature === c.signature) throw new Error(`must-fail case ${c.id} verifies`);

// The desktop path's form: the proxy's web_payment answer, posted by the browser to {base_url}/web/pay.
const WEB_FIELDS = 'booking_id,correlation_id';
const webFields = { booking_id: 'BK-6c1f4e2a-8b7d-4c3e-9f10-2a3b4c5d6e7f', correlation_id: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff' };
const webMessage = WEB_FIELDS.split(',').map((name) => `${name}=${webFields[name]}`).join(',');
const webPayment = [
  {
    id: 'web-payment-form',
    operation: 'web_payment',
    signed_field_names: WEB_FIELDS,
    key: KEY,
    fields: webFields,
    message: webMessage,
    message_utf8_hex: Buffer.from(webMessage, 'utf8').toString('hex'),
    signature: sign(webMessage),
    web_payment: {
      url: 'http://127.0.0.1:4010/web/pay',
      method: 'POST',
      fields: { ...webFields, signed_field_names: WEB_FIELDS, signature: sign(webMessage) },
    },
    note: 'The data.web_payment of a "web" book answer: the browser posts fields, form-encoded, to url. No API operation signs this field set, so the signature cannot be replayed on status or cancel.',
  },
];

const document = {
  description:
    'Signature vectors of the intent payment service as wallet-pay-button reads it. HMAC-SHA256 keyed with the access key (its UTF-8 bytes) over the UTF-8 bytes of `message`, in standard base64 with padding. `message` is name=value pairs in the order of signed_field_names, joined by "," with no spaces; each value is written exactly as the body writes it (`fields` holds that text). `vectors` must verify; each `must_fail` case must not: its `signature` is not the HMAC of its `message` under its `key` (`expected_signature` is).',
  algorithm: 'HMAC-SHA256, base64 (RFC 4648 section 4, padded)',
  signed_field_names: FIELDS,
  vectors,
  must_fail: mustFail,
  web_payment: webPayment,
};
writeFileSync(new URL('../signature-vectors.json', import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
console.log(`signature-vectors.json: ${vectors.length} vectors, ${mustFail.length} must-fail cases, ${webPayment.length} web payment form`);
