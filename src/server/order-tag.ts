/**
 * The merchant's secret, held in one place, and the order tag it signs. The key (the first provider's
 * secret) signs for the browser (a booking's receipt, the order tag a booking's `transaction_uuid` ends
 * with) and checks what comes back (a receipt, a lost booking's tag).
 * The order tag ties a booking to the attempt and to the order it was made for, so that a booking this
 * server lost can be given back its order. Built once by the handler; no other part of it holds the key.
 */
import type { OrderReference } from '../protocol/contract.js';
import { signMessage, verifyMessage } from '../protocol/signature.js';
import { canonical } from '../protocol/values.js';

/** Characters of the attempt's digest kept in a `transaction_uuid` (156 bits). */
const ATTEMPT_CHARS = 26;
/** Characters of the order tag (132 bits). */
const TAG_CHARS = 22;

/** What the handler signs and checks with the merchant's secret. */
export interface MerchantKey {
  /** The merchant's account at the first provider (a product code), which every message signed here names. */
  readonly productCode: string;
  /**
   * The book answer's `receipt`: an HMAC of the booking's ids. A browser sends it back with `/status`
   * and `/cancel`; only with it is a booking the store does not hold asked of the service, so made-up
   * ids cost no signed call.
   */
  receiptOf(bookingId: string, correlationId: string): Promise<string>;
  /** Whether `receipt` is the one given for these ids (checked in constant time). */
  isReceiptOf(receipt: unknown, bookingId: string, correlationId: string): Promise<boolean>;
  /**
   * The booking's `transaction_uuid` for the attempt's idempotency `key`, what it books and the
   * fencing `token` of the order's lease it is booked under (so each book sends a reference of its
   * own): the attempt's digest ({@link transactionUuid}), and the order tag
   * {@link MerchantKey.orderOfLostBooking} checks.
   */
  bookingUuid(key: string, fingerprint: string, order: OrderReference, amount: number, token: number): Promise<string>;
  /**
   * The order and amount a lost booking was made for, when its `transaction_uuid` (the service's
   * `transaction_id`) carries the tag of `order` (as the browser presents it): `undefined` otherwise.
   */
  orderOfLostBooking(transactionId: string, order: OrderReference | undefined): Promise<{ order: OrderReference; amount: number } | undefined>;
}

/** The handler's one holder of `accessKey`; messages name `productCode`, so one key's MACs never pass for another product's. */
export function createMerchantKey(productCode: string, accessKey: string): MerchantKey {
  const receiptMessage = (bookingId: string, correlationId: string) => `receipt\n${productCode}\n${bookingId}\n${correlationId}`;

  /**
   * The tag a booking's `transaction_uuid` ends with: an HMAC, under the access key, of the order
   * reference the browser booked with and the amount (in paise, base 36, written after the tag). The
   * service hands the `transaction_uuid` back in a status check (`transaction_id`), so a booking this
   * server lost can be tied to the order the browser presents, and no one without the key can forge it.
   */
  async function orderTag(order: OrderReference, amount: number): Promise<string> {
    const paise = Math.round(amount * 100).toString(36);
    const mac = await signMessage(`order\n${productCode}\n${JSON.stringify(canonical(order))}\n${paise}`, accessKey);
    return `${base64url(mac).slice(0, TAG_CHARS)}${paise}`;
  }

  return {
    productCode,
    receiptOf: (bookingId, correlationId) => signMessage(receiptMessage(bookingId, correlationId), accessKey),
    isReceiptOf: (receipt, bookingId, correlationId) =>
      typeof receipt === 'string' ? verifyMessage(receiptMessage(bookingId, correlationId), receipt, accessKey) : Promise.resolve(false),
    async bookingUuid(key, fingerprint, order, amount, token) {
      const attempt = await transactionUuid(productCode, key, `${fingerprint}\n${amount}\n${token}`);
      return `${attempt.slice(0, 4 + ATTEMPT_CHARS)}${await orderTag(order, amount)}`;
    },
    async orderOfLostBooking(transactionId, order) {
      if (!order || !transactionId.startsWith('wpb_') || transactionId.length <= 4 + ATTEMPT_CHARS + TAG_CHARS) return undefined;
      const paise = transactionId.slice(4 + ATTEMPT_CHARS + TAG_CHARS);
      if (!/^[0-9a-z]{1,12}$/.test(paise)) return undefined;
      const amount = parseInt(paise, 36) / 100;
      return (await orderTag(order, amount)) === transactionId.slice(4 + ATTEMPT_CHARS) ? { order, amount } : undefined;
    },
  };
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
 * passes the channel, the order's canonical id, the amount and the fencing token of the book). The
 * same key for other content gives another id, so a key can never carry a booking (paid or not) over
 * to another order; the token makes each book's id its own, so a book after one that gave up (its
 * booking cancelled) is never handed that booking by the service's idempotency. A booking's
 * `transaction_uuid` is its first 30 characters followed by the order tag.
 */
export async function transactionUuid(productCode: string, idempotencyKey: string, content: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${productCode}\n${idempotencyKey}\n${content}`)));
  return `wpb_${base64url(bytesToBase64(bytes))}`;
}
