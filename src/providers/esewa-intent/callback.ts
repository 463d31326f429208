/**
 * Verification of the service's payment-status callback from its raw body text.
 */
import { isPaymentStatus, PAYMENT_STATUSES, type PaymentStatus } from '../../protocol/contract.js';
import { RawJsonError, ReasonedError, readRawJsonObject } from '../../protocol/raw-json.js';
import { SIGNED_FIELDS, verifyMessage } from '../../protocol/signature.js';
import { describeValue } from '../../protocol/values.js';

/** A verified callback, as the service sent it. */
export interface CallbackPayload {
  product_code: string;
  /** The amount as a number; see `amount_text` for the digits that were signed. */
  amount: number;
  /** The amount exactly as it stood in the body (e.g. `1000.0`), which is what the signature covers. */
  amount_text: string;
  reference_code: string;
  correlation_id: string;
  status: PaymentStatus;
  signed_field_names: string;
  signature: string;
}

/** Why a callback was refused. */
export type CallbackRejectionReason =
  | 'malformed_json'
  | 'not_an_object'
  | 'duplicate_field'
  | 'missing_field'
  | 'extra_field'
  | 'invalid_field'
  | 'wrong_signed_fields'
  | 'unknown_status'
  | 'bad_signature';

/** Thrown by {@link verifyCallback}; `reason` is a stable code, `message` says what was wrong. */
export class CallbackVerificationError extends ReasonedError<CallbackRejectionReason> {
  override name = 'CallbackVerificationError';
}

/** Every field a callback carries, in the spec's order. */
export const CALLBACK_FIELDS = [
  'product_code',
  'amount',
  'reference_code',
  'correlation_id',
  'status',
  'signed_field_names',
  'signature',
] as const;

const STRING_FIELDS = ['product_code', 'reference_code', 'correlation_id', 'status', 'signed_field_names', 'signature'];

/**
 * Parses and verifies the raw JSON text of a payment-status callback.
 *
 * Requires an object with exactly the callback's fields, `signed_field_names` equal to
 * `product_code,amount,reference_code,correlation_id,status`, a known status, and a signature that
 * matches every signed value as it stands in the text (a number keeps its source digits, a string is
 * its decoded JSON value). Pass the body text before any JSON parsing: a parsed-and-reserialised body
 * can lose the digits that were signed.
 *
 * @throws {CallbackVerificationError} with a `reason` code and a message naming the problem.
 */
export async function verifyCallback(rawBody: string, accessKey: string): Promise<CallbackPayload> {
  if (typeof rawBody !== 'string') {
    throw new CallbackVerificationError('malformed_json', 'The callback body must be passed as its raw text.');
  }
  let members;
  try {
    members = readRawJsonObject(rawBody);
  } catch (error) {
    if (!(error instanceof RawJsonError)) throw error;
    const reason = error.reason === 'duplicate_member' ? 'duplicate_field' : error.reason;
    throw new CallbackVerificationError(reason, `Callback refused: ${error.message}`);
  }

  const missing = CALLBACK_FIELDS.filter((name) => !members.has(name));
  if (missing.length > 0) {
    throw new CallbackVerificationError('missing_field', `Callback refused: missing field(s) ${missing.join(', ')}.`);
  }
  const extra = [...members.keys()].filter((name) => !(CALLBACK_FIELDS as readonly string[]).includes(name));
  if (extra.length > 0) {
    throw new CallbackVerificationError(
      'extra_field',
      `Callback refused: unexpected field(s) ${extra.map((n) => JSON.stringify(n)).join(', ')}.`,
    );
  }
  for (const name of STRING_FIELDS) {
    const value = members.get(name)?.value;
    if (typeof value !== 'string' || value.length === 0) {
      throw new CallbackVerificationError(
        'invalid_field',
        `Callback refused: "${name}" must be a non-empty string; got ${describeValue(value)}.`,
      );
    }
  }
  const amount = members.get('amount') as { value: unknown; raw: string };
  if (typeof amount.value !== 'number') {
    throw new CallbackVerificationError(
      'invalid_field',
      `Callback refused: "amount" must be a JSON number; got ${describeValue(amount.value)}.`,
    );
  }
  const value = (name: string) => members.get(name)?.value as string;

  if (value('signed_field_names') !== SIGNED_FIELDS.callback) {
    throw new CallbackVerificationError(
      'wrong_signed_fields',
      `Callback refused: signed_field_names must be "${SIGNED_FIELDS.callback}"; got "${value('signed_field_names')}".`,
    );
  }
  const status = value('status');
  if (!isPaymentStatus(status)) {
    throw new CallbackVerificationError(
      'unknown_status',
      `Callback refused: status "${status}" is not one of ${PAYMENT_STATUSES.join(', ')}.`,
    );
  }

  const message = SIGNED_FIELDS.callback
    .split(',')
    .map((name) => `${name}=${name === 'amount' ? amount.raw : value(name)}`)
    .join(',');
  if (!(await verifyMessage(message, value('signature'), accessKey))) {
    throw new CallbackVerificationError(
      'bad_signature',
      'Callback refused: the signature does not match the signed fields (wrong access key, or the body was altered).',
    );
  }

  return {
    product_code: value('product_code'),
    amount: amount.value,
    amount_text: amount.raw,
    reference_code: value('reference_code'),
    correlation_id: value('correlation_id'),
    status,
    signed_field_names: value('signed_field_names'),
    signature: value('signature'),
  };
}

