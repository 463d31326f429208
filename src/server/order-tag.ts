/**
 * The order tag: what ties a booking's `transaction_uuid` to the attempt and to the order it was made
 * for, so that a booking this server lost can be given back its order, and the store's key of an order.
 */
import type { OrderReference } from '../protocol/contract.js';
import type { MerchantKey } from './merchant-key.js';

/** Characters of the attempt's digest kept in a `transaction_uuid` (156 bits). */
const ATTEMPT_CHARS = 26;
/** Characters of the order tag (132 bits). */
const TAG_CHARS = 22;

/**
 * The tag a booking's `transaction_uuid` ends with: an HMAC, under the access key, of the order
 * reference the browser booked with and the amount (in paise, base 36, written after the tag). The
 * service hands the `transaction_uuid` back in a status check (`transaction_id`), so a booking this
 * server lost can be tied to the order the browser presents, and no one without the key can forge it.
 */
async function orderTag(key: MerchantKey, order: OrderReference, amount: number): Promise<string> {
  const paise = Math.round(amount * 100).toString(36);
  const mac = await key.orderMac(order, paise);
  return `${base64url(mac).slice(0, TAG_CHARS)}${paise}`;
}

/** The booking's `transaction_uuid`: the attempt's digest, and the order tag {@link orderOfLostBooking} checks. */
export async function bookingUuid(merchantKey: MerchantKey, key: string, fingerprint: string, order: OrderReference, amount: number): Promise<string> {
  const attempt = await transactionUuid(merchantKey.productCode, key, `${fingerprint}\n${amount}`);
  const tag = await orderTag(merchantKey, order, amount);
  return `${attempt.slice(0, 4 + ATTEMPT_CHARS)}${tag}`;
}

/**
 * The order and amount a lost booking was made for, when its `transaction_uuid` (the service's
 * `transaction_id`) carries the tag of `order` (as the browser presents it): `undefined` otherwise.
 */
export async function orderOfLostBooking(key: MerchantKey, transactionId: string, order: OrderReference | undefined): Promise<{ order: OrderReference; amount: number } | undefined> {
  if (!order || !transactionId.startsWith('wpb_') || transactionId.length <= 4 + ATTEMPT_CHARS + TAG_CHARS) return undefined;
  const paise = transactionId.slice(4 + ATTEMPT_CHARS + TAG_CHARS);
  if (!/^[0-9a-z]{1,12}$/.test(paise)) return undefined;
  const amount = parseInt(paise, 36) / 100;
  const expected = await orderTag(key, order, amount);
  return expected === transactionId.slice(4 + ATTEMPT_CHARS) ? { order, amount } : undefined;
}

/** Standard base64 to the URL-safe alphabet without padding: the one conversion of this module. */
function base64url(base64: string): string {
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The store's key of the order whose canonical id (`lookupOrder`'s `id`) is `id`: a fixed-size key (an id may be up to 256 characters, long for an index entry). */
export async function orderKeyOf(id: string): Promise<string> {
  return base64url(bytesToBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`order\n${id}`)))));
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The merchant's attempt digest for an idempotency key and what it books (`content`: the handler
 * passes the channel, the order's canonical id and the amount). The same key for the same content
 * always gives the same id, so the service's own idempotency keeps a replay single even after this
 * server lost its memory; the same key for other content gives another id, so a key can never carry a
 * booking (paid or not) over to another order. A booking's `transaction_uuid` is its first 30
 * characters followed by the order tag.
 */
export async function transactionUuid(productCode: string, idempotencyKey: string, content: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${productCode}\n${idempotencyKey}\n${content}`)));
  return `wpb_${base64url(bytesToBase64(bytes))}`;
}
