/**
 * The element's answer for a booking: its ids and receipt, with the deeplink of an app booking or the
 * signed form of a web payment.
 */
import type { BookResult, WebPaymentInstruction } from '../protocol/contract.js';
import { WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import type { MerchantKey } from './merchant-key.js';
import type { StoredBooking } from './store.js';

/** The book answer for `booking`; a web booking's form posts to `webPaymentUrl`. */
export async function bookResult(key: MerchantKey, webPaymentUrl: string, booking: StoredBooking): Promise<BookResult> {
  const { booking_id, correlation_id, channel } = booking;
  const receipt = await key.receiptOf(booking_id, correlation_id);
  if (channel === 'app') return { booking_id, correlation_id, channel, deeplink: booking.deeplink, receipt };
  const signed = { booking_id, correlation_id };
  const web_payment: WebPaymentInstruction = {
    url: webPaymentUrl,
    method: 'POST',
    fields: {
      booking_id,
      correlation_id,
      signed_field_names: WEB_PAYMENT_SIGNED_FIELDS,
      signature: await key.webPaymentSignature(signed),
    },
  };
  return { booking_id, correlation_id, channel, web_payment, receipt };
}
