/**
 * eSewa ePay v2 on the wire: the form the browser posts, the amounts as text, the status check's URL
 * and answer, and how its statuses map to the kit's. The signed return redirect is read in
 * `./return.ts`. Pure and DOM-free: Web Crypto only, so the kit, edge runtimes and the sandbox share it.
 *
 * Facts from eSewa's developer pages (developer.esewa.com.np/pages/Epay); the published vectors that
 * prove a function sit in its doc comment, under the UAT secret of {@link EPAY_TEST_CREDENTIALS}.
 */
import type { PaymentStatus } from '../../protocol/contract.js';
import { ReasonedError } from '../../protocol/raw-json.js';
import { signatureMessage, signMessage } from '../../protocol/signature.js';

/** The fields a request signs, in the order it must sign them. */
export const EPAY_REQUEST_SIGNED_FIELDS = 'total_amount,transaction_uuid,product_code';

/**
 * eSewa's published UAT merchant. The secret has no trailing `(`: one older page's sentence
 * "…1/q( Input should be text type.)" put one there, and code copying it signs with another key.
 */
export const EPAY_TEST_CREDENTIALS = { productCode: 'EPAYTEST', secretKey: '8gBm/:&EnhH.1/q' } as const;

/**
 * Where each environment lives. `form` is the URL the browser posts to; `status` is the base of the
 * status check, to which {@link epayStatusUrl} adds `/api/epay/transaction/status/`.
 */
export const EPAY_HOSTS = {
  test: { form: 'https://rc-epay.esewa.com.np/api/epay/main/v2/form', status: 'https://rc.esewa.com.np' },
  live: { form: 'https://epay.esewa.com.np/api/epay/main/v2/form', status: 'https://epay.esewa.com.np' },
} as const;

/** The path of the status check under a status base. */
const STATUS_PATH = '/api/epay/transaction/status/';

/** The statuses the status check answers, as eSewa's status table lists them. */
export const EPAY_STATUSES = ['PENDING', 'COMPLETE', 'FULL_REFUND', 'PARTIAL_REFUND', 'AMBIGUOUS', 'NOT_FOUND', 'CANCELED'] as const;

/** One status of the status check. */
export type EpayStatus = (typeof EPAY_STATUSES)[number];

/** Whether `value` is one of {@link EPAY_STATUSES}. */
export function isEpayStatus(value: unknown): value is EpayStatus {
  return typeof value === 'string' && (EPAY_STATUSES as readonly string[]).includes(value);
}

/**
 * Rupees as a whole number of paisa. A float sum such as `0.1 + 0.2` lands within a few ulps of its
 * paisa and is taken as that paisa; a real third decimal (`110.505`) is a tenth of a paisa away and is
 * refused, since eSewa's amounts have two decimals at most.
 */
export function epayPaisa(rupees: number): number {
  if (typeof rupees !== 'number' || !Number.isFinite(rupees) || rupees < 0) {
    throw new TypeError(`An eSewa amount must be a finite number of rupees, zero or more; got ${String(rupees)}.`);
  }
  const scaled = rupees * 100;
  const paisa = Math.round(scaled);
  if (Math.abs(scaled - paisa) > 8 * Number.EPSILON * Math.max(1, scaled)) {
    throw new TypeError(`An eSewa amount has at most two decimals (whole paisa); got ${String(rupees)}.`);
  }
  if (!Number.isSafeInteger(paisa)) throw new TypeError(`An eSewa amount is too large to count in paisa; got ${String(rupees)}.`);
  return paisa;
}

/** Paisa written as eSewa's amount text: no decimals when whole, else two. */
function paisaText(paisa: number): string {
  const rupees = Math.floor(paisa / 100);
  const rest = paisa % 100;
  return rest === 0 ? String(rupees) : `${rupees}.${String(rest).padStart(2, '0')}`;
}

/**
 * The amount text that is posted and signed: a whole amount without decimals (`110`, as eSewa's own
 * examples write it), anything else with two (`110.50`). One sandbox report has `100.00` refused where
 * `100` passes, so a whole amount never gets decimals.
 *
 * @example epayAmountText(110) === '110'; epayAmountText(110.5) === '110.50'; epayAmountText(0.1 + 0.2) === '0.30'
 * @throws TypeError for a non-finite or negative amount, or one with more than two decimals.
 */
export function epayAmountText(rupees: number): string {
  return paisaText(epayPaisa(rupees));
}

/** What {@link epayFormFields} needs: rupee amounts (charges default to 0) and the merchant's ids and URLs. */
export interface EpayFormInput {
  /** The price of the product, in rupees. */
  amount: number;
  /** Tax on it, in rupees (default 0). */
  taxAmount?: number;
  /** The merchant's service charge, in rupees (default 0). */
  serviceCharge?: number;
  /** The merchant's delivery charge, in rupees (default 0). */
  deliveryCharge?: number;
  /** Unique on every request: 1 to 64 letters, digits and `-`. */
  transactionUuid: string;
  /** The merchant code eSewa issued (`EPAYTEST` in UAT). */
  productCode: string;
  /** Where the customer lands after a successful payment, with the signed `?data=` appended. */
  successUrl: string;
  /** Where the customer lands after a failed or pending payment (eSewa adds no parameters). */
  failureUrl: string;
}

const TRANSACTION_UUID = /^[A-Za-z0-9-]{1,64}$/;

/** Refuses anything but an absolute http(s) URL, naming the field. */
function absoluteUrl(name: string, value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new TypeError(`${name} must be an absolute http(s) URL; got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * The eleven fields of the form the browser posts (form-encoded) to `EPAY_HOSTS[env].form`, signed
 * with the merchant's secret. `total_amount` is the sum counted in paisa, so float noise in the parts
 * cannot reach it, and the signature covers the very strings posted.
 *
 * eSewa's published example (UAT secret): amount 100, tax 10, uuid `241028`, `EPAYTEST` signs
 * `total_amount=110,transaction_uuid=241028,product_code=EPAYTEST` as
 * `i94zsd3oXF6ZsSr/kGqT4sSzYQzjj1W/waxjWyRwaME=`.
 *
 * @throws TypeError for a bad amount, a `transactionUuid` other than 1 to 64 of `[A-Za-z0-9-]`, an
 * empty product code or a URL that is not absolute.
 */
export async function epayFormFields(input: EpayFormInput, secretKey: string): Promise<Record<string, string>> {
  const { transactionUuid, productCode } = input;
  if (typeof transactionUuid !== 'string' || !TRANSACTION_UUID.test(transactionUuid)) {
    throw new TypeError(`transactionUuid must be 1 to 64 letters, digits and "-"; got ${JSON.stringify(transactionUuid)}.`);
  }
  if (typeof productCode !== 'string' || productCode.trim() === '') throw new TypeError('productCode is empty: set the code eSewa issued.');
  if (typeof secretKey !== 'string' || secretKey === '') throw new TypeError('The secret key is empty: set the key eSewa issued.');
  const parts = [input.amount, input.taxAmount ?? 0, input.serviceCharge ?? 0, input.deliveryCharge ?? 0].map(epayPaisa);
  const [amount = 0, tax = 0, service = 0, delivery = 0] = parts;
  const fields: Record<string, string> = {
    amount: paisaText(amount),
    tax_amount: paisaText(tax),
    product_service_charge: paisaText(service),
    product_delivery_charge: paisaText(delivery),
    total_amount: paisaText(amount + tax + service + delivery),
    transaction_uuid: transactionUuid,
    product_code: productCode,
    success_url: absoluteUrl('successUrl', input.successUrl),
    failure_url: absoluteUrl('failureUrl', input.failureUrl),
    signed_field_names: EPAY_REQUEST_SIGNED_FIELDS,
  };
  fields.signature = await signMessage(signatureMessage(fields, EPAY_REQUEST_SIGNED_FIELDS), secretKey);
  return fields;
}

/** What the status check is asked about: the posted amount (rupees, or its text) and the ids. */
export interface EpayStatusQuery {
  /** The merchant code the form was posted with. */
  productCode: string;
  /** Rupees, or an amount text as eSewa wrote it (`"2,700.0"`): either is sent without a comma. */
  totalAmount: number | string;
  /** The `transaction_uuid` the form was posted with. */
  transactionUuid: string;
}

const AMOUNT_TEXT = /^\d+(?:\.\d+)?$/;

/** An amount text with its thousands commas dropped, or undefined when it is no decimal number. */
export function epayAmountWithoutComma(text: string): string | undefined {
  const plain = text.replaceAll(',', '');
  return AMOUNT_TEXT.test(plain) ? plain : undefined;
}

/**
 * The status check's GET URL: `{statusBase}/api/epay/transaction/status/?product_code=…&total_amount=…&transaction_uuid=…`.
 * A base with a path (a sandbox mounted under `/esewa`) keeps it.
 *
 * @example epayStatusUrl(EPAY_HOSTS.test.status, { productCode: 'EPAYTEST', totalAmount: '2,700.0', transactionUuid: 'a-1' })
 * // 'https://rc.esewa.com.np/api/epay/transaction/status/?product_code=EPAYTEST&total_amount=2700.0&transaction_uuid=a-1'
 * @throws TypeError for a base that is not an absolute http(s) URL, or an amount that is not one.
 */
export function epayStatusUrl(statusBase: string, query: EpayStatusQuery): string {
  absoluteUrl('statusBase', statusBase);
  const base = new URL(statusBase);
  if (base.search || base.hash) throw new TypeError(`statusBase takes no query or fragment; got ${JSON.stringify(statusBase)}.`);
  const amount = typeof query.totalAmount === 'number' ? epayAmountText(query.totalAmount) : epayAmountWithoutComma(String(query.totalAmount));
  if (amount === undefined) throw new TypeError(`totalAmount is not an amount; got ${JSON.stringify(query.totalAmount)}.`);
  const url = new URL(`${base.origin}${base.pathname.replace(/\/+$/, '')}${STATUS_PATH}`);
  url.searchParams.set('product_code', query.productCode);
  url.searchParams.set('total_amount', amount);
  url.searchParams.set('transaction_uuid', query.transactionUuid);
  return url.href;
}

/** The status check's answer, read. */
export interface EpayStatusAnswer {
  product_code: string;
  transaction_uuid: string;
  /** Rupees (a thousands comma dropped). */
  total_amount: number;
  status: EpayStatus;
  /** eSewa's transaction code; `null` while `PENDING` and for `NOT_FOUND`. */
  ref_id: string | null;
}

/** Why a status answer could not be read. */
export type EpayAnswerErrorReason = 'not-json' | 'provider-error' | 'unknown-status' | 'shape';

/** Thrown by {@link readEpayStatus} for a body that is not a status answer; `reason` says which way. */
export class EpayAnswerError extends ReasonedError<EpayAnswerErrorReason> {
  override name = 'EpayAnswerError';
  /** eSewa's own `code` when it answered with its error shape (`{ code, error_message }`). */
  readonly providerCode: unknown;
  constructor(reason: EpayAnswerErrorReason, message: string, providerCode?: unknown) {
    super(reason, message);
    this.providerCode = providerCode;
  }
}

/**
 * Reads the status check's JSON answer, e.g.
 * `{"product_code":"EPAYTEST","transaction_uuid":"123","total_amount":100.0,"status":"COMPLETE","ref_id":"0001TS9"}`.
 * `total_amount` may be a number or a text with a thousands comma; a missing `ref_id` reads as `null`.
 *
 * @throws EpayAnswerError `not-json`; `provider-error` for eSewa's `{code, error_message}` (its
 * message kept, e.g. "Service is currently unavailable"); `unknown-status`; `shape` for anything else.
 */
export function readEpayStatus(text: string): EpayStatusAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EpayAnswerError('not-json', `eSewa's status answer is not JSON: ${JSON.stringify(String(text).slice(0, 120))}.`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EpayAnswerError('shape', `eSewa's status answer is not a JSON object: ${JSON.stringify(body)}.`);
  }
  const answer = body as Record<string, unknown>;
  if (typeof answer.error_message === 'string') {
    throw new EpayAnswerError('provider-error', `eSewa answered: ${answer.error_message} (code ${JSON.stringify(answer.code)}).`, answer.code);
  }
  const { product_code, transaction_uuid, total_amount, status, ref_id } = answer;
  if (typeof product_code !== 'string' || typeof transaction_uuid !== 'string') {
    throw new EpayAnswerError('shape', 'eSewa\'s status answer lacks product_code or transaction_uuid as text.');
  }
  const amount = typeof total_amount === 'number' ? total_amount : typeof total_amount === 'string' ? Number(epayAmountWithoutComma(total_amount) ?? NaN) : NaN;
  if (!Number.isFinite(amount) || amount < 0) {
    throw new EpayAnswerError('shape', `eSewa's status answer has no amount: total_amount is ${JSON.stringify(total_amount)}.`);
  }
  if (!isEpayStatus(status)) throw new EpayAnswerError('unknown-status', `eSewa's status answer has an unknown status: ${JSON.stringify(status)}.`);
  if (ref_id !== undefined && ref_id !== null && typeof ref_id !== 'string') {
    throw new EpayAnswerError('shape', `eSewa's status answer has a ref_id that is not text: ${JSON.stringify(ref_id)}.`);
  }
  return { product_code, transaction_uuid, total_amount: amount, status, ref_id: ref_id ?? null };
}

/**
 * The kit's status for an eSewa status. Our mapping (eSewa states none): an expired session
 * (`NOT_FOUND`) is CANCELED; eSewa's `CANCELED` reverses a payment that had succeeded, else cancels
 * it; a partial refund leaves the payment a SUCCESS, whose refunded part the caller reports.
 */
export function kitStatusOfEpay(status: EpayStatus, { wasSuccess }: { wasSuccess: boolean }): PaymentStatus {
  switch (status) {
    case 'PENDING':
    case 'AMBIGUOUS':
      return 'PENDING';
    case 'COMPLETE':
    case 'PARTIAL_REFUND':
      return 'SUCCESS';
    case 'NOT_FOUND':
      return 'CANCELED';
    case 'CANCELED':
      return wasSuccess ? 'REVERTED' : 'CANCELED';
    case 'FULL_REFUND':
      return 'REVERTED';
    default:
      throw new TypeError(`Not an eSewa status: ${JSON.stringify(status satisfies never)}.`);
  }
}
