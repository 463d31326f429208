/**
 * The checks of an ePay v2 form POST, before any transaction is touched: the eleven fields, the
 * merchant's key, `signed_field_names`, the signature over the very strings posted, the amounts and
 * their sum, the uuid and the two URLs. A refusal carries eSewa's JSON body where one is known, else
 * the same shape with the sandbox's own words (eSewa documents no HTTP status: 400 is ours).
 */
import { signatureMessage, verifyMessage } from '../../protocol/signature.js';
import { EPAY_ERRORS, EPAY_FORM_FIELDS, EPAY_REQUEST_SIGNED_FIELDS, epayError, epayKeyFor, paisaOf, type EpayError } from './rules.js';

/** A checked form: the eleven strings as posted and the total in paisa. */
export type FormCheck = { ok: true; form: Record<string, string>; totalPaisa: number } | { ok: false; body: EpayError };

const UUID = /^[A-Za-z0-9-]+$/;
const AMOUNT_FIELDS = ['amount', 'tax_amount', 'product_service_charge', 'product_delivery_charge'] as const;

function refuse(body: EpayError): FormCheck {
  return { ok: false, body };
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Checks a posted form against the sandbox's merchants (`productCodes`, `accessKey`). */
export async function checkEpayForm(params: URLSearchParams, sandbox: { productCodes: readonly string[]; accessKey: string }): Promise<FormCheck> {
  const repeated = EPAY_FORM_FIELDS.filter((name) => params.getAll(name).length > 1);
  if (repeated.length > 0) return refuse(epayError(`Field(s) sent more than once: ${repeated.join(', ')}.`));
  const missing = EPAY_FORM_FIELDS.filter((name) => !params.get(name));
  if (missing.length > 0) return refuse(epayError(`Missing or empty field(s): ${missing.join(', ')}. All eleven fields are required; send unused charges as 0.`));
  const form = Object.fromEntries(EPAY_FORM_FIELDS.map((name) => [name, params.get(name)!])) as Record<string, string>;
  const key = epayKeyFor(form['product_code']!, sandbox);
  if (key === undefined) return refuse(EPAY_ERRORS.unknownMerchant);
  if (form['signed_field_names'] !== EPAY_REQUEST_SIGNED_FIELDS) {
    return refuse(epayError(`signed_field_names must be "${EPAY_REQUEST_SIGNED_FIELDS}"; got "${form['signed_field_names']}".`));
  }
  // The very strings posted: "110.00" signed as "110" (or the reverse) is a bad signature, as at eSewa.
  const message = signatureMessage(form, EPAY_REQUEST_SIGNED_FIELDS);
  if (!(await verifyMessage(message, form['signature']!, key))) return refuse(EPAY_ERRORS.badSignature);
  const parts = AMOUNT_FIELDS.map((name) => [name, form[name]!.includes(',') ? undefined : paisaOf(form[name]!)] as const);
  const total = form['total_amount']!.includes(',') ? undefined : paisaOf(form['total_amount']!);
  const bad = [...parts, ['total_amount', total] as const].filter(([, paisa]) => paisa === undefined).map(([name]) => name);
  if (bad.length > 0) return refuse(epayError(`Amount field(s) not a plain decimal number of at most two places: ${bad.join(', ')}.`));
  const sum = parts.reduce((acc, [, paisa]) => acc + paisa!, 0);
  if (sum !== total) {
    return refuse(epayError(`total_amount (${form['total_amount']}) must equal amount + tax_amount + product_service_charge + product_delivery_charge.`));
  }
  if (total === 0) return refuse(epayError('total_amount must be more than 0.'));
  if (!UUID.test(form['transaction_uuid']!)) return refuse(epayError('transaction_uuid may hold letters, digits and "-" only.'));
  const badUrls = (['success_url', 'failure_url'] as const).filter((name) => !isWebUrl(form[name]!));
  if (badUrls.length > 0) return refuse(epayError(`${badUrls.join(' and ')} must be absolute http(s) URLs without credentials.`));
  return { ok: true, form, totalPaisa: total! };
}
