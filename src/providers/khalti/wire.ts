/**
 * Khalti KPG-2 (ePayment) on the wire: the hosts, the bodies the merchant's server sends, and readers
 * of Khalti's answers that turn each into a typed value or a named error. Pure and fetch-free: the
 * adapter does the I/O and hands each answer's HTTP status and text to a reader.
 *
 * ```ts
 * const res = await fetch(`${KHALTI_HOSTS.test.api}epayment/initiate/`, {
 *   method: 'POST',
 *   headers: khaltiHeaders(secretKey),
 *   body: JSON.stringify(khaltiInitiateBody({ amount: 12.5, purchaseOrderId: 'o-1', purchaseOrderName: 'Tea',
 *     returnUrl: 'https://shop.example/return', websiteUrl: 'https://shop.example' })),
 * });
 * const { pidx, payment_url } = readKhaltiInitiate(res.status, await res.text());
 * ```
 *
 * KPG-2 signs nothing (no HMAC on requests, returns or lookups): trust comes only from the lookup made
 * with the secret key, so the return's query is a hint (see {@link readKhaltiReturn}).
 */
import type { PaymentStatus } from '../../protocol/contract.js';

/** Khalti's API and refund bases, test (the sandbox dashboard's keys) and live. */
export const KHALTI_HOSTS = {
  test: { api: 'https://dev.khalti.com/api/v2/', refund: 'https://dev.khalti.com/api/merchant-transaction/' },
  live: { api: 'https://khalti.com/api/v2/', refund: 'https://khalti.com/api/merchant-transaction/' },
} as const;

/** The smallest amount Khalti accepts: 1000 paisa (Rs 10). */
export const KHALTI_MIN_PAISA = 1000;

/** A status string Khalti's lookup reports (the documented ones; any other string may come). */
export type KhaltiStatus =
  | 'Initiated'
  | 'Pending'
  | 'Completed'
  | 'Refunded'
  | 'Partially Refunded'
  | 'Expired'
  | 'User canceled'
  | 'Failed'
  | 'Canceled';

/** A refusal of the amount before any call is made (fractions of a paisa, below the minimum, not a number). */
export class KhaltiAmountError extends RangeError {
  override name = 'KhaltiAmountError';
}

/** What kind of refusal a {@link KhaltiAnswerError} is. */
export type KhaltiErrorKind = 'validation' | 'auth' | 'not-found' | 'limit' | 'unexpected';

/**
 * Khalti answered, but not with what was asked for. `fields` holds Khalti's validation messages by
 * field (`{"amount":["…"],"error_key":"validation_error"}`); `body` is the parsed answer (or its text).
 */
export class KhaltiAnswerError extends Error {
  override name = 'KhaltiAnswerError';
  constructor(
    message: string,
    readonly kind: KhaltiErrorKind,
    readonly status: number,
    readonly fields: Readonly<Record<string, readonly string[]>>,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** The secret key was refused (wrong key, or no `Key ` prefix). */
export class KhaltiAuthError extends KhaltiAnswerError {
  override name = 'KhaltiAuthError';
}

/** Khalti knows no such `pidx` or transaction. */
export class KhaltiNotFoundError extends KhaltiAnswerError {
  override name = 'KhaltiNotFoundError';
}

/** A refusal that reads as the per-transaction cap of a new live account (NPR 200 until KYC is done). */
export class KhaltiLimitError extends KhaltiAnswerError {
  override name = 'KhaltiLimitError';
}

/**
 * Rupees to integer paisa, exactly: `0.1 + 0.2` gives 30, `10.005` is refused (it is not a whole
 * paisa), and so is anything under Khalti's minimum of Rs 10, before any call is made.
 */
export function toPaisa(rupees: number): number {
  if (typeof rupees !== 'number' || !Number.isFinite(rupees)) throw new KhaltiAmountError(`The amount must be a finite number of rupees; got ${String(rupees)}.`);
  const scaled = rupees * 100;
  const paisa = Math.round(scaled);
  // Binary floats put 0.1 + 0.2 a few ulps off 0.3; a real third decimal is far more than that off.
  if (Math.abs(scaled - paisa) > 1e-6 || !Number.isSafeInteger(paisa)) {
    throw new KhaltiAmountError(`The amount must be whole paisa (at most two decimals); got Rs ${rupees}.`);
  }
  if (paisa < KHALTI_MIN_PAISA) {
    throw new KhaltiAmountError(`Khalti's minimum is Rs ${KHALTI_MIN_PAISA / 100} (${KHALTI_MIN_PAISA} paisa); got Rs ${rupees}.`);
  }
  return paisa;
}

/** Integer paisa to rupees (`1050` → `10.5`). */
export function fromPaisa(paisa: number): number {
  if (!Number.isSafeInteger(paisa)) throw new KhaltiAmountError(`Paisa must be an integer; got ${String(paisa)}.`);
  return paisa / 100;
}

/** What an initiate needs; `amount` is in rupees and becomes integer paisa. */
export interface KhaltiInitiateInput {
  amount: number;
  purchaseOrderId: string;
  purchaseOrderName: string;
  /** Where the shopper comes back by GET; the same URL a mobile SDK is given. */
  returnUrl: string;
  websiteUrl: string;
  customerInfo?: { name?: string; email?: string; phone?: string };
  /** Sent as `merchant_extra`, metadata Khalti keeps with the payment. */
  merchantExtra?: string;
}

/** The JSON body of `POST epayment/initiate/`. */
export interface KhaltiInitiateBody {
  return_url: string;
  website_url: string;
  amount: number;
  purchase_order_id: string;
  purchase_order_name: string;
  customer_info?: { name?: string; email?: string; phone?: string };
  merchant_extra?: string;
}

function requireText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${name} must be a non-empty string.`);
  return value;
}

function requireHttpUrl(name: string, value: unknown): string {
  const text = requireText(name, value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`${name} must be an absolute http(s) URL; got "${text}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${name} must be an absolute http(s) URL; got "${text}".`);
  return text;
}

/** Builds the initiate body; throws before any call on an amount or field Khalti would refuse. */
export function khaltiInitiateBody(input: KhaltiInitiateInput): KhaltiInitiateBody {
  const body: KhaltiInitiateBody = {
    return_url: requireHttpUrl('returnUrl', input.returnUrl),
    website_url: requireHttpUrl('websiteUrl', input.websiteUrl),
    amount: toPaisa(input.amount),
    purchase_order_id: requireText('purchaseOrderId', input.purchaseOrderId),
    purchase_order_name: requireText('purchaseOrderName', input.purchaseOrderName),
  };
  if (input.customerInfo) body.customer_info = { ...input.customerInfo };
  if (input.merchantExtra !== undefined) body.merchant_extra = input.merchantExtra;
  return body;
}

/** The headers of every server call: the secret key with Khalti's `Key ` prefix, and JSON. */
export function khaltiHeaders(secretKey: string): { Authorization: string; 'content-type': string } {
  return { Authorization: `Key ${requireText('secretKey', secretKey)}`, 'content-type': 'application/json' };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Khalti's validation messages by field (`error_key` and `detail` left out). */
function fieldMessages(body: unknown): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  if (!isObject(body)) return fields;
  for (const [key, value] of Object.entries(body)) {
    if (key === 'error_key' || key === 'status_code' || key === 'detail') continue;
    if (Array.isArray(value)) fields[key] = value.map(String);
    else if (typeof value === 'string') fields[key] = [value];
  }
  return fields;
}

const AUTH_FIX =
  'Send the header "Authorization: Key <secret key>" (the word Key, a space, then the live_secret_key of the dashboard: test-admin.khalti.com for the test host dev.khalti.com, admin.khalti.com for khalti.com; a KPG-1 test_secret_key is refused). Against the sandbox, the key is the sandbox\'s access key.';

/**
 * Whether a refusal reads as the new-account cap: it speaks of KYC or verification, or of a limit
 * together with the cap's figure (200 rupees, 20000 paisa). A guess on words, since Khalti documents
 * no body for it; a plain "exceeds the refundable amount" is not taken for the cap.
 */
function readsAsCap(text: string): boolean {
  if (/\bkyc\b|unverified|not verified/i.test(text)) return true;
  return /limit|exceed|maximum/i.test(text) && /(?<![\d.])(200(?:\.0+)?|20000)(?!\.?\d)/.test(text);
}

/** The error for an answer that is not the one asked for, by kind (see {@link readsAsCap} for the cap). */
function answerError(what: string, status: number, text: string, body: unknown): KhaltiAnswerError {
  const detail = isObject(body) && typeof body['detail'] === 'string' ? body['detail'] : undefined;
  const fields = fieldMessages(body);
  if (status === 401 || status === 403) {
    return new KhaltiAuthError(`Khalti refused the key (${status}${detail ? `: ${detail}` : ''}). ${AUTH_FIX}`, 'auth', status, fields, body);
  }
  if (detail === 'Not found.' || status === 404) {
    return new KhaltiNotFoundError(`Khalti knows no such ${what} (${status}${detail ? `: ${detail}` : ''}).`, 'not-found', status, fields, body);
  }
  const listed = Object.entries(fields).map(([field, messages]) => `${field}: ${messages.join(' ')}`);
  const said = [detail, ...listed].filter(Boolean).join('; ') || text.slice(0, 200) || 'an empty answer';
  if (status >= 400 && readsAsCap(text)) {
    return new KhaltiLimitError(
      `Khalti refused the ${what} for a limit (${status}: ${said}). A new live merchant account cannot take more than NPR 200 per transaction until its KYC is done; complete the account's KYC with Khalti, or keep each payment within the cap until then. (Matched on the words of the answer: Khalti documents no body for this refusal.)`,
      'limit',
      status,
      fields,
      body,
    );
  }
  const kind: KhaltiErrorKind = isObject(body) && body['error_key'] === 'validation_error' ? 'validation' : 'unexpected';
  return new KhaltiAnswerError(`Khalti refused the ${what} (${status}: ${said}).`, kind, status, fields, body);
}

/** What a successful initiate gives: where to send the shopper, and until when. */
export interface KhaltiInitiated {
  pidx: string;
  payment_url: string;
  /** Epoch milliseconds (Khalti sends an ISO time at +05:45). */
  expires_at: number;
  /** Seconds. */
  expires_in: number;
}

/** Reads the initiate's answer; any other answer is a {@link KhaltiAnswerError} (validation, auth, limit). */
export function readKhaltiInitiate(status: number, text: string): KhaltiInitiated {
  const body = parse(text);
  if (status === 200 && isObject(body)) {
    const { pidx, payment_url: paymentUrl, expires_at: expiresAt, expires_in: expiresIn } = body;
    const at = typeof expiresAt === 'string' ? Date.parse(expiresAt) : NaN;
    if (typeof pidx === 'string' && pidx && typeof paymentUrl === 'string' && paymentUrl && !Number.isNaN(at) && typeof expiresIn === 'number') {
      return { pidx, payment_url: paymentUrl, expires_at: at, expires_in: expiresIn };
    }
  }
  if (status === 200) malformed('initiate', status, text, body);
  throw answerError('initiate', status, text, body);
}

function malformed(what: string, status: number, text: string, body: unknown): never {
  throw new KhaltiAnswerError(`Khalti's ${what} answer is not the documented shape: ${text.slice(0, 200)}`, 'unexpected', status, {}, body);
}

/** The lookup's answer. Only `status: 'Completed'` means paid. */
export interface KhaltiLookup {
  pidx: string;
  /** Paisa. */
  total_amount: number;
  /** One of {@link KhaltiStatus}, or another string Khalti adds (map it with {@link kitStatusOfKhalti}). */
  status: string;
  /** Null until paid. */
  transaction_id: string | null;
  fee: number;
  refunded: boolean;
}

/**
 * Reads the lookup's answer. An HTTP 400 whose body carries a status (`Expired`, `User canceled`) is
 * an answer, not an error: clients that throw on every non-2xx lose exactly those statuses.
 * `{"detail":"Not found."}` is a {@link KhaltiNotFoundError}.
 */
export function readKhaltiLookup(status: number, text: string): KhaltiLookup {
  const body = parse(text);
  if ((status === 200 || status === 400) && isObject(body) && typeof body['status'] === 'string' && typeof body['pidx'] === 'string' && typeof body['total_amount'] === 'number') {
    const transactionId = body['transaction_id'];
    return {
      pidx: body['pidx'],
      total_amount: Number(body['total_amount']),
      status: body['status'],
      transaction_id: typeof transactionId === 'string' && transactionId !== '' ? transactionId : null,
      fee: Number(body['fee'] ?? 0),
      refunded: body['refunded'] === true,
    };
  }
  if (status === 200) malformed('lookup', status, text, body);
  throw answerError('payment (pidx)', status, text, body);
}

/**
 * The kit's status of a Khalti status. Unknown strings read as PENDING: Khalti's docs say to hold
 * and ask again (or contact Khalti) for any status they do not list. A partial refund leaves the
 * payment paid (SUCCESS); only a full refund reverts it.
 */
export function kitStatusOfKhalti(status: string): PaymentStatus {
  switch (status) {
    case 'Initiated':
      return 'BOOKED';
    case 'Pending':
      return 'PENDING';
    // The docs' table writes `Partially Refunded`, their description `Partially refunded`.
    case 'Completed':
    case 'Partially Refunded':
    case 'Partially refunded':
      return 'SUCCESS';
    case 'Expired':
    case 'User canceled':
    case 'Canceled':
      return 'CANCELED';
    case 'Refunded':
      return 'REVERTED';
    case 'Failed':
      return 'FAILED';
    default:
      return 'PENDING';
  }
}

/** The return's query parameters, for display and for knowing which `pidx` to look up. */
export interface KhaltiReturnHint {
  pidx: string | null;
  status: string | null;
  purchase_order_id: string | null;
  purchase_order_name: string | null;
  /** Paisa. */
  amount: number | null;
  /** Paisa. */
  total_amount: number | null;
  /** From `transaction_id`, else `tidx`, else `txnId`; null when empty (a cancel). */
  transaction_id: string | null;
  /** The payer's Khalti ID, masked (`98XXXXX904`). */
  mobile: string | null;
}

function param(query: URLSearchParams, name: string): string | null {
  const value = query.get(name);
  return value === null || value === '' ? null : value;
}

function paisaParam(query: URLSearchParams, name: string): number | null {
  const value = param(query, name);
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

/**
 * Reads the query Khalti appends to `return_url`. A HINT, never a verdict: nothing in it is signed,
 * so anyone can open the return URL with `status=Completed`. Decide with a lookup of `pidx` made with
 * the secret key; only its `Completed` means paid.
 */
export function readKhaltiReturn(query: URLSearchParams): KhaltiReturnHint {
  return {
    pidx: param(query, 'pidx'),
    status: param(query, 'status'),
    purchase_order_id: param(query, 'purchase_order_id'),
    purchase_order_name: param(query, 'purchase_order_name'),
    amount: paisaParam(query, 'amount'),
    total_amount: paisaParam(query, 'total_amount'),
    transaction_id: param(query, 'transaction_id') ?? param(query, 'tidx') ?? param(query, 'txnId'),
    mobile: param(query, 'mobile'),
  };
}

/**
 * The body of a wallet payment's refund (`POST {refund base}{transaction_id}/refund/`): empty for the
 * whole amount, `{ amount }` in paisa for part of it.
 */
export function khaltiRefundBody(input: { amountPaisa?: number } = {}): { amount?: number } {
  if (input.amountPaisa === undefined) return {};
  if (!Number.isSafeInteger(input.amountPaisa) || input.amountPaisa <= 0) {
    throw new KhaltiAmountError(`A partial refund is a positive integer of paisa; got ${String(input.amountPaisa)}.`);
  }
  return { amount: input.amountPaisa };
}

/** Reads the refund's answer: `{ detail }` on success; every refusal is a named error. */
export function readKhaltiRefund(status: number, text: string): { detail: string } {
  const body = parse(text);
  if (status >= 200 && status < 300 && isObject(body) && typeof body['detail'] === 'string') return { detail: body['detail'] };
  if (status >= 200 && status < 300) malformed('refund', status, text, body);
  throw answerError('refund (transaction_id)', status, text, body);
}
