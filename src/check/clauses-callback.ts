/** The checker's clauses on the service's callback: answered when signed, refused when forged or altered. */
import { randomUUID } from 'node:crypto';
import { codeOf, describe } from './exchange.js';
import { fail, type Steps } from './steps.js';

/** `callback-signed`: the service's own delivery of a signed callback is answered 2xx. */
export async function callbackSigned(s: Steps): Promise<string> {
  const booking = await s.paidBooking();
  const first = booking.attempts[0];
  if (!first) fail(`the service's callback to ${booking.service.callback_url} was not attempted within 15 s`);
  if (!first!.delivered) {
    const all = booking.attempts.map((a) => (a.status !== undefined ? `HTTP ${a.status}` : a.error)).join(', ');
    fail(`the service's signed SUCCESS callback to ${first!.url} was answered ${all}, not 2xx`);
  }
  return `delivered to ${first!.url}`;
}

/** `callback-replay`: the same signed callback again is answered 2xx. */
export async function callbackReplay(s: Steps): Promise<void> {
  const booking = await s.paidBooking();
  const body = await s.callbackBody({
    amount: booking.service.amount,
    reference_code: booking.service.reference_code,
    correlation_id: booking.correlation_id,
    status: 'SUCCESS',
  });
  const exchange = await s.sendCallback(booking.service.callback_url, body);
  if (exchange.status < 200 || exchange.status > 299) fail(`the signed SUCCESS callback sent again must be answered 2xx; ${describe(exchange)}`);
}

/** `callback-forgeries-refused`: forged and altered callbacks are refused with a 4xx. */
export async function callbackForgeries(s: Steps): Promise<void> {
  const booking = await s.freshBooking();
  const values = {
    amount: booking.service.amount,
    reference_code: booking.service.reference_code,
    correlation_id: booking.correlation_id,
    status: 'SUCCESS' as const,
  };
  const url = booking.service.callback_url;
  const cases: Array<[string, string]> = [
    ['a SUCCESS signed with another key', await s.callbackBody(values, { key: `not-${s.sandbox.accessKey}` })],
    ['a SUCCESS whose amount was changed under the signature', await s.callbackBody({ ...values, amount: values.amount + 1 }, { signedOver: { amount: values.amount } })],
    ['a SUCCESS whose status was changed under a FAILED signature', await s.callbackBody(values, { signedOver: { status: 'FAILED' } })],
  ];
  for (const [what, body] of cases) {
    const exchange = await s.sendCallback(url, body);
    if (exchange.status < 400 || exchange.status > 499) fail(`${what} must be refused with a 4xx; ${describe(exchange)}`);
  }
}

/** `callback-unknown-booking`: a callback for a booking the proxy never made is refused, and pays nothing. */
export async function callbackUnknownBooking(s: Steps): Promise<void> {
  const booking = await s.freshBooking();
  const body = await s.callbackBody({
    amount: s.options.amount,
    reference_code: `REF-${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    correlation_id: randomUUID(),
    status: 'SUCCESS',
  });
  const exchange = await s.sendCallback(booking.service.callback_url, body);
  if (exchange.status < 400 || exchange.status > 499) fail(`a signed callback for a booking the proxy never made must be refused with a 4xx; ${describe(exchange)}`);
  // Refused, and the proxy's open order still books.
  const again = await s.book('app', booking.order, s.key());
  if (again.status !== 200) fail(`after a callback for an unknown booking, the proxy's open order no longer books; ${describe(again)}`);
}

/** `forged-success-not-paid`: a forged SUCCESS leaves the order payable. */
export async function forgedSuccessNotPaid(s: Steps): Promise<void> {
  const booking = await s.freshBooking();
  const body = await s.callbackBody(
    { amount: booking.service.amount, reference_code: booking.service.reference_code, correlation_id: booking.correlation_id, status: 'SUCCESS' },
    { key: `not-${s.sandbox.accessKey}` },
  );
  await s.sendCallback(booking.service.callback_url, body);
  const exchange = await s.book('app', booking.order, s.key());
  if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') {
    fail(`after a forged SUCCESS callback the order must still book with a new key; ${describe(exchange)}`);
  }
}
