/**
 * The merchant's access key, held in one place: what it signs for the browser (a booking's receipt,
 * a web payment's form, the MAC of a booking's order tag) and what it checks (a receipt sent back, the
 * service's callbacks). Built once by the handler; no other part of it holds the key.
 */
import type { OrderReference } from '../protocol/contract.js';
import { createSignature, signMessage, verifyMessage, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import { canonical } from '../protocol/values.js';
import { verifyCallback, type CallbackPayload } from './callback.js';

/** What the handler signs and checks with the merchant's access key. */
export interface MerchantKey {
  /** The merchant's product code at the service, which every message signed here names. */
  readonly productCode: string;
  /**
   * The book answer's `receipt`: an HMAC of the booking's ids. A browser sends it back with `/status`
   * and `/cancel`; only with it is a booking the store does not hold asked of the service, so made-up
   * ids cost no signed call.
   */
  receiptOf(bookingId: string, correlationId: string): Promise<string>;
  /** Whether `receipt` is the one given for these ids (checked in constant time). */
  isReceiptOf(receipt: unknown, bookingId: string, correlationId: string): Promise<boolean>;
  /** The HMAC of an order reference as the browser booked with it and the amount in paise (base 36): an order tag's proof. */
  orderMac(order: OrderReference, paise: string): Promise<string>;
  /** The signature of a web payment's signed fields. */
  webPaymentSignature(fields: { booking_id: string; correlation_id: string }): Promise<string>;
  /** A callback's payload, its signature checked; else a `CallbackVerificationError`. */
  verifiedCallback(rawBody: string): Promise<CallbackPayload>;
}

/** The handler's one holder of `accessKey`; messages name `productCode`, so one key's MACs never pass for another product's. */
export function createMerchantKey(productCode: string, accessKey: string): MerchantKey {
  const receiptMessage = (bookingId: string, correlationId: string) => `receipt\n${productCode}\n${bookingId}\n${correlationId}`;
  return {
    productCode,
    receiptOf: (bookingId, correlationId) => signMessage(receiptMessage(bookingId, correlationId), accessKey),
    isReceiptOf: (receipt, bookingId, correlationId) =>
      typeof receipt === 'string' ? verifyMessage(receiptMessage(bookingId, correlationId), receipt, accessKey) : Promise.resolve(false),
    orderMac: (order, paise) => signMessage(`order\n${productCode}\n${JSON.stringify(canonical(order))}\n${paise}`, accessKey),
    webPaymentSignature: (fields) => createSignature(fields, WEB_PAYMENT_SIGNED_FIELDS, accessKey),
    verifiedCallback: (rawBody) => verifyCallback(rawBody, accessKey),
  };
}
