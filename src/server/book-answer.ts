/**
 * The element's answer for a booking: its ids and receipt, with the deeplink of an app booking or the
 * signed form of a web payment.
 */
import type { BookResult, WebPaymentInstruction } from '../protocol/contract.js';
import { WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import type { Kit } from './context.js';
import type { StoredBooking } from './store.js';

/** The book answer for `booking`; a web booking's form posts to `webPaymentUrl`. */
export async function bookResult(kit: Kit, webPaymentUrl: string, booking: StoredBooking): Promise<BookResult> {
  const { booking_id, correlation_id, channel } = booking;
  const receipt = await kit.key.receiptOf(booking_id, correlation_id);
  if (channel === 'app') return { booking_id, correlation_id, channel, deeplink: booking.deeplink, receipt };
  const signed = { booking_id, correlation_id };
  const web_payment: WebPaymentInstruction = {
    url: webPaymentUrl,
    method: 'POST',
    fields: {
      booking_id,
      correlation_id,
      signed_field_names: WEB_PAYMENT_SIGNED_FIELDS,
      signature: await kit.key.webPaymentSignature(signed),
    },
  };
  return { booking_id, correlation_id, channel, web_payment, receipt };
}
