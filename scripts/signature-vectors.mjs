// Writes signature-vectors.json: the signed messages of the payment service (book, status, cancel,
// callback, and the desktop path's web payment form) and of eSewa ePay v2 (its published request and
// return, and a UAT capture), with their fields, the exact message, the key and the expected signature,
// and messages that must not verify. Computed here with node:crypto, independently of the kit; a
// published signature that does not reproduce stops the script. The kit's tests and both example
// proxies' tests read the file. Run: node scripts/signature-vectors.mjs
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
  return { id, kind: 'service', operation, signed_field_names: names, key: KEY, fields, ...(body ? { body } : {}), message, message_utf8_hex: Buffer.from(message, 'utf8').toString('hex'), signature: sign(message), ...(note ? { note } : {}) };
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
].map(({ id, ...c }) => ({ id, kind: 'service', ...c, expected_signature: sign(c.message, c.key) }));

// The desktop path's form: the proxy's web_payment answer, posted by the browser to {base_url}/web/pay.
const WEB_FIELDS = 'booking_id,correlation_id';
const webFields = { booking_id: 'BK-6c1f4e2a-8b7d-4c3e-9f10-2a3b4c5d6e7f', correlation_id: 'a1b2c3d4-e5f6-4711-8899-aabbccddeeff' };
const webMessage = WEB_FIELDS.split(',').map((name) => `${name}=${webFields[name]}`).join(',');
vectors.push({
  id: 'web-payment-form',
  kind: 'web-payment',
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
});

// eSewa ePay v2 (developer.esewa.com.np/pages/Epay), under its published UAT secret.
const EPAY_KEY = '8gBm/:&EnhH.1/q';
const EPAY_REQUEST = 'total_amount,transaction_uuid,product_code';
const EPAY_RETURN = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';
const epaySign = (message) => sign(message, EPAY_KEY);

/** An ePay vector; `published` is the signature eSewa shows, which must reproduce. */
function epayVector(id, kind, names, fields, extra) {
  const message = names.split(',').map((name) => `${name}=${fields[name]}`).join(',');
  const signature = epaySign(message);
  if (extra.published && extra.published !== signature) throw new Error(`${id}: the published signature does not reproduce`);
  const { published, ...rest } = extra;
  return { id, kind, signed_field_names: names, key: EPAY_KEY, fields, message, message_utf8_hex: Buffer.from(message, 'utf8').toString('hex'), signature, source: published ? 'published' : 'computed', ...rest };
}

/** A return's JSON as eSewa writes it: `amount` is total_amount's raw JSON literal, which the message may write otherwise. */
const returnBody = (fields, amount, signature) =>
  `{"transaction_code":"${fields.transaction_code}","status":"${fields.status}","total_amount":${amount},"transaction_uuid":"${fields.transaction_uuid}","product_code":"${fields.product_code}","signed_field_names":"${EPAY_RETURN}","signature":"${signature}"}`;
const docsReturn = { transaction_code: '000AWEO', status: 'COMPLETE', total_amount: '1000.0', transaction_uuid: '250610-162413', product_code: 'EPAYTEST', signed_field_names: EPAY_RETURN };
const capture = { transaction_code: '00094GS', status: 'COMPLETE', total_amount: '2700.0', transaction_uuid: '1733133399321-3c709af7-23b9-4083-b89c-1a6d50480004', product_code: 'EPAYTEST', signed_field_names: EPAY_RETURN };
const epay = [
  epayVector('epay-request-docs', 'epay-request', EPAY_REQUEST, { total_amount: '110', transaction_uuid: '241028', product_code: 'EPAYTEST' }, {
    published: 'i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=',
    note: 'eSewa\'s form example: amount 100, tax_amount 10, both charges 0, so total_amount 110 (written without decimals, as posted).',
  }),
  epayVector('epay-return-docs', 'epay-return', EPAY_RETURN, docsReturn, {
    published: '62GcfZTmVkzhtUeh+QJ1AqiJrjoWWGof3U+eTPTZ7fA=',
    note: 'eSewa\'s success payload. The list names itself: its value in the message is the list. total_amount is signed as written, 1000.0, whether the body holds the JSON number 1000.0 or the string "1000.0".',
  }),
  epayVector('epay-return-amount-1000', 'epay-return', EPAY_RETURN, { ...docsReturn, total_amount: '1000' }, {
    note: 'The payload of epay-return-docs with total_amount written 1000 (what JSON.parse then JSON.stringify make of 1000.0): another message, another signature.',
  }),
  epayVector('epay-return-comma-capture', 'epay-return', EPAY_RETURN, capture, {
    published: 'gzvlXYw1Oe6rh0W/9ifhdkKfxrEyWHItdLW1fT5kO4I=',
    note: 'A UAT success payload captured in public code, total_amount "2,700.0": its signature is the HMAC of the value without the comma, 2700.0.',
  }),
];
const [, docsVector, thousand, comma] = epay;
docsVector.body = returnBody(docsReturn, '1000.0', docsVector.signature);
thousand.body = returnBody(docsReturn, '1000', thousand.signature);
comma.body = returnBody(capture, '"2,700.0"', comma.signature);
for (const v of [docsVector, thousand, comma]) v.data = Buffer.from(v.body, 'utf8').toString('base64');
vectors.push(...epay);

const epayMustFail = [
  { id: 'epay-return-amount-rewritten', message: docsVector.message.replace('total_amount=1000.0', 'total_amount=1000'), signature: docsVector.signature,
    why: 'eSewa signed 1000.0: a payload re-serialised as 1000 does not verify under the published signature.' },
  { id: 'epay-return-comma-kept', message: comma.message.replace('total_amount=2700.0', 'total_amount=2,700.0'), signature: comma.signature,
    why: 'The capture\'s signature covers 2700.0: hashing "2,700.0" with its comma does not verify.' },
  { id: 'epay-request-docs-not-reproducing', message: 'total_amount=100,transaction_uuid=11-201-13,product_code=EPAYTEST', signature: '4Ov7pCI1zIOdwtV2BRMUNjz1upIlT/COTxfLhWvVurE=',
    why: 'Published by eSewa beside this message, but not its HMAC under the published secret (expected_signature is); public code fails to match it too. Documented here so no one takes it for a vector.' },
  { id: 'epay-secret-with-parenthesis', key: `${EPAY_KEY}(`, message: epay[0].message, signature: epay[0].signature,
    why: 'The secret copied with the "(" of an older page\'s sentence is another key.' },
].map(({ id, key = EPAY_KEY, message, signature, why }) => ({
  id, kind: message.startsWith('total_amount=') ? 'epay-request' : 'epay-return', key, message, signature, why, expected_signature: sign(message, key),
}));
mustFail.push(...epayMustFail);
for (const c of mustFail) if (c.expected_signature === c.signature) throw new Error(`must-fail case ${c.id} verifies`);

const document = {
  description:
    'Signature vectors of the intent payment service as wallet-pay-button reads it, and of eSewa ePay v2. HMAC-SHA256 keyed with `key` (its UTF-8 bytes) over the UTF-8 bytes of `message`, in standard base64 with padding. `message` is name=value pairs in the order of signed_field_names, joined by "," with no spaces; each value is written exactly as the body writes it (`fields` holds that text; for an eSewa return, total_amount without its thousands comma and signed_field_names as the list itself). `kind` says whose message it is (see `kinds`); `source` on eSewa\'s says whether eSewa published the signature or it is computed. `vectors` must verify; each `must_fail` case must not: its `signature` is not the HMAC of its `message` under its `key` (`expected_signature` is). One signature eSewa publishes does not reproduce: it is the must-fail case epay-request-docs-not-reproducing.',
  algorithm: 'HMAC-SHA256, base64 (RFC 4648 section 4, padded)',
  kinds: {
    service: 'The intent payment service\'s book, status, cancel and callback messages (`operation`); signed_field_names are those of `signed_field_names`.',
    'web-payment': 'The desktop path\'s web payment form: the proxy\'s data.web_payment, posted by the browser.',
    'epay-request': 'eSewa ePay v2\'s form, posted by the browser: signs total_amount,transaction_uuid,product_code.',
    'epay-return': 'eSewa ePay v2\'s success redirect: `body` is the JSON, `data` its base64 as the redirect carries it.',
  },
  signed_field_names: FIELDS,
  vectors,
  must_fail: mustFail,
};
writeFileSync(new URL('../signature-vectors.json', import.meta.url), `${JSON.stringify(document, null, 2)}\n`);
const count = (kind) => vectors.filter((v) => v.kind === kind).length;
console.log(`signature-vectors.json: ${vectors.length} vectors (${Object.keys(document.kinds).map((kind) => `${count(kind)} ${kind}`).join(', ')}), ${mustFail.length} must-fail cases`);
