/**
 * Khalti's rules for an initiate body, with its documented messages: blank field, bad URL, amount
 * under 1000 paisa, non-integer amount, breakdown off. Where the docs give no text (an absent field)
 * the text is Django REST framework's, whose messages the documented ones are.
 */

/** Messages by field, as Khalti answers them (with `error_key` added by the caller). */
export type FieldErrors = Record<string, string[]>;

/** A valid initiate, normalised. */
export interface InitiateFields {
  return_url: string;
  website_url: string;
  /** Paisa. */
  amount: number;
  purchase_order_id: string;
  purchase_order_name: string;
  /** `customer_info`, `amount_breakdown`, `product_details`, `modes` and every `merchant_*` key, as sent. */
  extras: Record<string, unknown>;
}

export const MESSAGES = {
  required: 'This field is required.',
  blank: 'This field may not be blank.',
  url: 'Enter a valid URL.',
  integer: 'A valid integer is required.',
  minimum: 'Amount should be greater than Rs. 10, that is 1000 paisa.',
  breakdown: 'Amount Breakdown mismatch.',
} as const;

const KEPT = ['customer_info', 'amount_breakdown', 'product_details', 'modes'];

function text(body: Record<string, unknown>, name: string, errors: FieldErrors): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) errors[name] = [MESSAGES.required];
  else if (typeof value !== 'string' && typeof value !== 'number') errors[name] = ['Not a valid string.'];
  else if (String(value).trim() === '') errors[name] = [MESSAGES.blank];
  else return String(value);
  return undefined;
}

function url(body: Record<string, unknown>, name: string, errors: FieldErrors): string | undefined {
  const value = text(body, name, errors);
  if (value === undefined) return undefined;
  try {
    const parsed = new URL(value);
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '') return value;
  } catch {
    // answered below
  }
  errors[name] = [MESSAGES.url];
  return undefined;
}

/** An integer as the docs' code samples send it too (`"1000"`); `1000.0` passes as 1000, `10.5` does not. */
export function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(-?\d+)(?:\.0*)?\s*$/.exec(value);
  return match ? Number(match[1]) : undefined;
}

function amount(body: Record<string, unknown>, errors: FieldErrors): number | undefined {
  const value = body['amount'];
  if (value === undefined || value === null) errors['amount'] = [MESSAGES.required];
  else if (value === '') errors['amount'] = [MESSAGES.integer];
  else {
    const paisa = integerOf(value);
    if (paisa === undefined) errors['amount'] = [MESSAGES.integer];
    else if (paisa < 1000) errors['amount'] = [MESSAGES.minimum];
    else return paisa;
  }
  return undefined;
}

/** The breakdown's amounts must add up to `amount`; a breakdown that is no list of `{label, amount}` is a mismatch too. */
function breakdownAddsUp(breakdown: unknown, paisa: number): boolean {
  if (!Array.isArray(breakdown)) return false;
  let sum = 0;
  for (const line of breakdown) {
    const part = typeof line === 'object' && line !== null ? integerOf((line as Record<string, unknown>)['amount']) : undefined;
    if (part === undefined) return false;
    sum += part;
  }
  return sum === paisa;
}

/** Checks an initiate body: its fields, or Khalti's messages by field. */
export function validateInitiate(body: unknown): { ok: true; fields: InitiateFields } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { non_field_errors: ['Invalid data. Expected a dictionary, but got ' + (Array.isArray(body) ? 'list' : typeof body) + '.'] } };
  }
  const record = body as Record<string, unknown>;
  const returnUrl = url(record, 'return_url', errors);
  const websiteUrl = url(record, 'website_url', errors);
  const paisa = amount(record, errors);
  const orderId = text(record, 'purchase_order_id', errors);
  const orderName = text(record, 'purchase_order_name', errors);
  if (paisa !== undefined && record['amount_breakdown'] !== undefined && !breakdownAddsUp(record['amount_breakdown'], paisa)) {
    errors['amount'] = [MESSAGES.breakdown];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const extras: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (KEPT.includes(key) || key.startsWith('merchant_')) extras[key] = value;
  return {
    ok: true,
    fields: { return_url: returnUrl!, website_url: websiteUrl!, amount: paisa!, purchase_order_id: orderId!, purchase_order_name: orderName!, extras },
  };
}
