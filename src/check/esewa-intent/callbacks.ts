/**
 * The intent service's callbacks as the checker writes them: a body signed over the spec's callback
 * fields with the sandbox's access key (or another, to forge one), the amount signed as written, and
 * sent to the proxy's callback URL only where the checker may send.
 */
import type { PaymentStatus } from '../../protocol/contract.js';
import { createSignature, SIGNED_FIELDS } from '../../protocol/signature.js';
import type { SandboxBooking } from '../../sandbox/index.js';
import { printable, type Exchange } from '../exchange.js';
import { ClauseSkipped, type Steps } from '../steps.js';

/** The values a callback carries besides the product code. */
export interface CallbackValues {
  amount: number;
  reference_code: string;
  correlation_id: string;
  status: PaymentStatus;
}

/** A callback body as the service writes it, signed over `signedOver` (default: the same values) with `key`. */
export async function callbackBody(
  s: Steps,
  values: CallbackValues,
  options: { key?: string; signedOver?: Partial<CallbackValues>; amountWritten?: string } = {},
): Promise<string> {
  const sent = { product_code: s.sandbox.productCodes[0]!, ...values, signed_field_names: SIGNED_FIELDS.callback };
  const written = options.amountWritten;
  // An amount written otherwise (1250.50 for 1250.5) is signed, and sent, exactly as written.
  const signed = { ...sent, ...(written === undefined ? {} : { amount: written }), ...options.signedOver };
  const signature = await createSignature(signed, SIGNED_FIELDS.callback, options.key ?? s.sandbox.accessKey);
  const body = JSON.stringify({ ...sent, signature });
  return written === undefined ? body : body.replace(`"amount":${JSON.stringify(values.amount)}`, `"amount":${written}`);
}

/** The signed callback of a booking's status, as the service writes it. */
export function callbackOf(s: Steps, booking: SandboxBooking, status: PaymentStatus, amountWritten?: string): Promise<string> {
  const values = { amount: booking.amount, reference_code: booking.reference_code, correlation_id: booking.correlation_id, status };
  return callbackBody(s, values, amountWritten === undefined ? {} : { amountWritten });
}

/** Sends a callback as the service would, only to an allowed origin (else the clause is skipped). */
export function sendCallback(s: Steps, url: string, body: string): Promise<Exchange> {
  if (!s.callbackAllowed(url)) throw new ClauseSkipped(`the checker sends no callback to ${printable(url)}: not --endpoint's origin nor one named by --callback-origin`);
  return s.http.send(url, { body });
}
