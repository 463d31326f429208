/**
 * The receipt of a booking: what the kit gives the browser with a book answer, so that only a browser
 * it gave the booking can make it ask the service about a booking its store does not hold.
 */
import { signMessage, verifyMessage } from '../protocol/signature.js';
import type { Kit } from './context.js';

const receiptMessage = (kit: Kit, bookingId: string, correlationId: string) =>
  `receipt\n${kit.productCode}\n${bookingId}\n${correlationId}`;

/**
 * The book answer's `receipt`: an HMAC, under the access key, of the booking's ids. A browser sends it
 * back with `/status` and `/cancel`; only with it is a booking the store does not hold asked of the
 * service, so made-up ids cost no signed call.
 */
export function receiptOf(kit: Kit, bookingId: string, correlationId: string): Promise<string> {
  return signMessage(receiptMessage(kit, bookingId, correlationId), kit.accessKey);
}

/** Whether `receipt` is the one the kit gave for these ids (checked in constant time). */
export function isReceiptOf(kit: Kit, receipt: unknown, bookingId: string, correlationId: string): Promise<boolean> {
  return typeof receipt === 'string' ? verifyMessage(receiptMessage(kit, bookingId, correlationId), receipt, kit.accessKey) : Promise.resolve(false);
}
