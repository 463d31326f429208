/**
 * The continuation address: a booking's payment carried from a third-party in-app browser to the
 * phone's own browser, where the shopper's session (the in-app browser's cookies) does not travel. It
 * is the checkout page's own address with a fragment, `#wallet-pay=<JSON, percent-encoded>`, holding the
 * booking's ids, the server's `receipt` of them and its web payment (or deeplink): the other browser's
 * element asks `/status` with them (no session needed, and a booking that expired or was closed answers
 * so) and follows the payment after checking its address against the allowed hosts, as it checks a
 * fresh booking's. No new route on the server, and no secret in the browser: the receipt is the one
 * the book answer already gave this browser. A fragment never reaches a server, so the address stays
 * out of access logs and `Referer` headers.
 *
 * This module reads a continuation; open-in-browser.ts writes it (`continuationAddress`), in the in-app
 * browser's chunk: the two ends load in different browsers, and neither carries the other's code.
 * Pure: addresses come in and go out as strings.
 */
import type { WebPaymentInstruction } from '../protocol/contract.js';
import { isRecord } from '../protocol/values.js';
import { parseWebPayment } from './booking-client.js';
import { CONTINUATION_PREFIX } from './kept.js';
import { checkProviderUrl, type UrlRefusal } from './urls.js';

// The first module (kept.ts) looks for the prefix alone, so it is declared there.
export { CONTINUATION_PREFIX };

/**
 * The longest continuation fragment read, in characters: a signed form of the largest
 * provider (eSewa's ePay, eleven fields) takes under 1,500 once percent-encoded; anything much longer
 * is not ours.
 */
export const MAX_CONTINUATION_CHARS = 4096;

/** Longest id and receipt accepted, as the server's `/status` accepts them. */
const MAX_ID_CHARS = 128;

/** What a continuation carries: one booking and where its payment goes on. */
export interface Continuation {
  booking_id: string;
  correlation_id: string;
  /** The book answer's receipt, sent back with `/status` (a server that lost the booking asks the service with it). */
  receipt?: string;
  /** A web booking's payment page. */
  web_payment?: WebPaymentInstruction;
  /** An app booking's deeplink, for a link the shopper taps. */
  deeplink?: string;
}

/** Why a continuation was refused: not ours or damaged, too long, or its address is not one to follow. */
export type ContinuationRefusal = 'malformed' | 'oversized' | UrlRefusal;

/** A continuation read and checked: with the address of its payment (checked), or why it was refused. */
export type ContinuationRead = { ok: true; continuation: Continuation; url: URL } | { ok: false; reason: ContinuationRefusal };

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_CHARS;

/** The continuation's own fields, and nothing else: a value of another shape is refused whole. */
function asContinuation(value: unknown): Continuation | null {
  if (!isRecord(value)) return null;
  const { booking_id, correlation_id, receipt, web_payment: web, deeplink } = value;
  // Exactly one way on: the web page, read as a book answer's is, or the app.
  let web_payment: WebPaymentInstruction | undefined;
  try {
    if (web !== undefined) web_payment = parseWebPayment(web);
  } catch {
    return null;
  }
  const way = web_payment ? deeplink === undefined : typeof deeplink === 'string';
  return way && isText(booking_id) && isText(correlation_id) && (receipt === undefined || isText(receipt))
    ? { booking_id, correlation_id, ...(receipt !== undefined && { receipt }), ...(web_payment ? { web_payment } : { deeplink: deeplink as string }) }
    : null;
}

/**
 * The continuation in `pageUrl`'s fragment, checked: `null` when there is none; else its fields and
 * its payment's address (the web page or the deeplink) checked against `allowedHosts` exactly as a
 * book answer's is, or why it was refused.
 */
export function readContinuation(pageUrl: string, allowedHosts: readonly string[]): ContinuationRead | null {
  const at = pageUrl.indexOf('#');
  const fragment = at < 0 ? '' : pageUrl.slice(at);
  if (!fragment.startsWith(CONTINUATION_PREFIX)) return null;
  if (fragment.length > MAX_CONTINUATION_CHARS) return { ok: false, reason: 'oversized' };
  let continuation: Continuation | null;
  try {
    continuation = asContinuation(JSON.parse(decodeURIComponent(fragment.slice(CONTINUATION_PREFIX.length))));
  } catch {
    continuation = null;
  }
  if (!continuation) return { ok: false, reason: 'malformed' };
  const check = checkProviderUrl(continuation.web_payment?.url ?? continuation.deeplink, allowedHosts);
  return check.ok ? { ok: true, continuation, url: check.url } : check;
}

/** `pageUrl` without its continuation (the address the page shows once it was read); other fragments stay. */
export function withoutContinuation(pageUrl: string): string {
  const at = pageUrl.indexOf('#');
  return at >= 0 && pageUrl.startsWith(CONTINUATION_PREFIX, at) ? pageUrl.slice(0, at) : pageUrl;
}
