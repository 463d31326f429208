/**
 * What a request to the sandbox's API must be, checked before any booking is touched: the JSON body
 * parsed (with the raw text of each member, for the amount and the signature), the fields each
 * operation lists, the book fields' formats and limits, and merchant authentication.
 *
 * Kept apart from `service.ts`, which holds the bookings and their states: these checks read no
 * booking, so they take what they need (the strict flag, the merchant's product codes and access
 * key) as arguments, and `service.ts` imports them, never the other way round.
 */
import { CODES, type ResponseCode } from '../../protocol/contract.js';
import { SIGNED_FIELDS, verifyMessage, signatureMessage } from '../../protocol/signature.js';
import { RawJsonError, readRawJsonObject } from '../../protocol/raw-json.js';
import { describeValue } from '../../protocol/values.js';

/** The three API operations. */
export type Operation = 'book' | 'status' | 'cancel';

/** Where the API's operations are: `{base_url}/api/client/intent/payment/book` and the others. */
export const INTENT_API_PREFIX = '/api/client/intent/payment/';

/** The API's operations, as their paths name them. */
export const OPERATIONS: readonly Operation[] = ['book', 'status', 'cancel'];

/** The fields a book request sets, once validated. */
export interface BookFields {
  product_code: string;
  amount: number;
  transaction_uuid: string;
  callback_url: string;
  redirect_url: string;
  properties: Record<string, string>;
}

/** What a profile relaxes (the default profile relaxes nothing). */
export interface RequestRules {
  /** Accept `"amount": "1000"` (a string in plain decimals), signed as written. */
  stringAmounts?: boolean;
  /** Accept a `redirect_url` in an app's own scheme (`shop://payment-result`). */
  appSchemeRedirects?: boolean;
}

// Schemes that run or read something where they open: never a merchant's return address.
const UNSAFE_SCHEMES = new Set(['javascript:', 'data:', 'vbscript:', 'file:', 'blob:']);

/** Limits the spec leaves open (our choice, documented in docs/sandbox.md). */
export const LIMITS = {
  maxAmount: 999_999_999.99,
  maxIdLength: 64,
  maxUrlLength: 2048,
  maxProperties: 20,
  maxPropertyKeyLength: 64,
  maxPropertyValueLength: 256,
} as const;

const REQUEST_FIELDS: Readonly<Record<Operation, readonly string[]>> = {
  book: [
    'product_code',
    'amount',
    'transaction_uuid',
    'signed_field_names',
    'signature',
    'callback_url',
    'redirect_url',
    'properties',
  ],
  status: ['booking_id', 'product_code', 'correlation_id', 'signed_field_names', 'signature'],
  cancel: ['booking_id', 'product_code', 'signed_field_names', 'signature'],
};

const TRANSACTION_UUID = /^[A-Za-z0-9_-]{1,64}$/;
const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
// Plain decimal notation only: an exponent or a third decimal is refused rather than rounded.
const AMOUNT_TEXT = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;

/** A refused request: its response code and the message the merchant reads. */
export class RequestError extends Error {
  constructor(
    readonly code: ResponseCode,
    message: string,
  ) {
    super(message);
  }
}

export function invalid(message: string): never {
  throw new RequestError(CODES.INVALID_REQUEST, message);
}

export function requireString(body: Record<string, unknown>, name: string, maxLength: number = LIMITS.maxIdLength): string {
  const value = body[name];
  if (typeof value !== 'string') invalid(`Field "${name}" must be a string; got ${describeValue(value)}.`);
  if (value.length === 0) invalid(`Field "${name}" is empty.`);
  if (value.length > maxLength) invalid(`Field "${name}" is longer than ${maxLength} characters.`);
  return value;
}

function requireUrl(body: Record<string, unknown>, name: string, appSchemes = false): string {
  const value = requireString(body, name, LIMITS.maxUrlLength);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    invalid(`Field "${name}" must be an absolute http(s) URL; got "${value}".`);
  }
  if (appSchemes && !UNSAFE_SCHEMES.has(url.protocol) && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol)) return value;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    invalid(`Field "${name}" must be an absolute http(s) URL; got the scheme "${url.protocol}".`);
  }
  if (url.username || url.password) invalid(`Field "${name}" must not carry credentials.`);
  return value;
}

function requireProperties(body: Record<string, unknown>): Record<string, string> {
  const value = body['properties'];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(`Field "properties" must be an object; got ${describeValue(value)}.`);
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > LIMITS.maxProperties) invalid(`Field "properties" has more than ${LIMITS.maxProperties} keys.`);
  const properties: Record<string, string> = {};
  for (const [key, item] of entries) {
    if (!SNAKE_CASE.test(key) || key.length > LIMITS.maxPropertyKeyLength) {
      invalid(`Key "${key}" of "properties" must be snake_case (a-z, 0-9, _) of at most ${LIMITS.maxPropertyKeyLength} characters.`);
    }
    if (typeof item !== 'string') invalid(`Value of properties.${key} must be a string; got ${describeValue(item)}.`);
    if (item.length > LIMITS.maxPropertyValueLength) {
      invalid(`Value of properties.${key} is longer than ${LIMITS.maxPropertyValueLength} characters.`);
    }
    properties[key] = item;
  }
  return properties;
}

/** The JSON object of a request body, and the raw text of each of its members. */
export function parseRequest(rawBody: string): { body: Record<string, unknown>; rawMembers: Map<string, string> } {
  if (rawBody.trim().length === 0) invalid('The request body is empty; send a JSON object.');
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    invalid('The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    invalid(`The request body must be a JSON object; got ${describeValue(body)}.`);
  }
  let rawMembers: Map<string, string>;
  try {
    rawMembers = new Map([...readRawJsonObject(rawBody)].map(([name, member]) => [name, member.raw]));
  } catch (error) {
    if (error instanceof RawJsonError) invalid(`The request body is not a usable JSON object: ${error.message}`);
    throw error;
  }
  return { body: body as Record<string, unknown>, rawMembers };
}

/**
 * Refuses missing fields; returns the unknown ones, or refuses them too when strict. Real merchant
 * integrations send fields the spec does not list (`failure_url` on book, for one), so by default
 * they are reported, not refused.
 */
export function checkFields(operation: Operation, body: Record<string, unknown>, strict: boolean | undefined): string[] {
  const expected = REQUEST_FIELDS[operation];
  const missing = expected.filter((name) => !Object.hasOwn(body, name));
  if (missing.length > 0) invalid(`Missing field(s) for ${operation}: ${missing.join(', ')}.`);
  const extra = Object.keys(body).filter((name) => !expected.includes(name));
  if (extra.length > 0 && strict) invalid(`Unexpected field(s) for ${operation}: ${extra.join(', ')}.`);
  return extra;
}

export function bookFields(body: Record<string, unknown>, rawMembers: Map<string, string>, rules: RequestRules = {}): BookFields {
  const given = body['amount'];
  const asString = rules.stringAmounts && typeof given === 'string';
  const amount = asString ? Number(given) : given;
  if (typeof amount !== 'number') invalid(`Field "amount" must be a number; got ${describeValue(amount)}.`);
  const amountText = asString ? given : (rawMembers.get('amount') ?? '');
  if (!AMOUNT_TEXT.test(amountText) || amount <= 0 || amount > LIMITS.maxAmount) {
    invalid(`Field "amount" must be a positive number of at most ${LIMITS.maxAmount} with at most two decimals; got ${amountText}.`);
  }
  const transactionUuid = requireString(body, 'transaction_uuid');
  if (!TRANSACTION_UUID.test(transactionUuid)) {
    invalid('Field "transaction_uuid" must be 1 to 64 letters, digits, "-" or "_".');
  }
  return {
    product_code: requireString(body, 'product_code'),
    amount,
    transaction_uuid: transactionUuid,
    callback_url: requireUrl(body, 'callback_url'),
    redirect_url: requireUrl(body, 'redirect_url', rules.appSchemeRedirects),
    properties: requireProperties(body),
  };
}

/** Signed fields, then merchant, then signature: each failure gets its own code. */
export async function authenticate(
  operation: Operation,
  body: Record<string, unknown>,
  rawMembers: Map<string, string>,
  productCode: string,
  productCodes: ReadonlySet<string>,
  accessKey: string,
): Promise<void> {
  const expected = SIGNED_FIELDS[operation];
  if (body['signed_field_names'] !== expected) {
    throw new RequestError(
      CODES.INVALID_SIGNED_FIELDS,
      `signed_field_names must be "${expected}" for ${operation}; got "${String(body['signed_field_names'])}".`,
    );
  }
  if (!productCodes.has(productCode)) {
    throw new RequestError(CODES.UNKNOWN_MERCHANT, `Unknown product_code "${productCode}": merchant authentication failed.`);
  }
  // Numbers are signed as they stand in the body ("1000.0" stays "1000.0"), strings as they are.
  const values: Record<string, string> = {};
  for (const name of expected.split(',')) {
    const value = body[name];
    values[name] = typeof value === 'number' ? rawMembers.get(name)! : String(value);
  }
  const ok = await verifyMessage(signatureMessage(values, expected), body['signature'] as string, accessKey);
  if (!ok) throw new RequestError(CODES.INVALID_SIGNATURE, 'Invalid Signature');
}
