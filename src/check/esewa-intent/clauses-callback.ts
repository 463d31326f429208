/** The checker's clauses on the service's callback: answered when signed, refused when forged or altered. */
import { randomUUID } from 'node:crypto';
import { codeOf, describe, printable } from '../exchange.js';
import { fail, type Steps } from '../steps.js';
import { callbackBody, callbackOf, sendCallback } from './callbacks.js';
import { callbackTarget, freshBooking, pay, callbackOutcome, paidBooking } from './steps.js';

/** docs/backends.md's warning about parsed amounts, quoted when a proxy falls into it. */
export const AMOUNT_WARNING =
  'verify a callback on its raw text: a JSON parser that turns 1000.0 into 1000 (PHP\'s json_decode, JavaScript\'s JSON.parse) makes a correct callback fail';

/** `callback-url-origin`: the callback URL is where the proxy itself answers (its public URL). */
export async function callbackUrlOrigin(s: Steps): Promise<string> {
  const { service, exchange } = await freshBooking(s);
  const url = service.callback_url;
  if (!s.callbackAllowed(url)) {
    const endpoint = new URL(s.endpoint).origin;
    const others = [...s.callbackOrigins].filter((o) => o !== endpoint);
    fail(
      `the callback URL the proxy registered, ${printable(url)}, is not on --endpoint's origin ${endpoint}${others.length ? ` nor on --callback-origin ${others.join(', ')}` : ''}: ` +
        'a wrong public URL (PUBLIC_URL)? The service posts every callback there. If that address is right (the proxy behind another public origin), ' +
        `name it with --callback-origin. The checker sends no callback there, and skips the clauses that need one; ${describe(exchange)}`,
    );
  }
  return `callbacks go to ${url}`;
}

/** The ways the real service may write an amount: 1250.5 as 1250.5, 1250.50, 1250.500; 1000 as 1000, 1000.0, 1000.00. */
export function amountWritings(amount: number): string[] {
  const plain = String(amount);
  return [...new Set([plain, amount.toFixed(2), Number.isInteger(amount) ? `${plain}.0` : `${amount.toFixed(2)}0`])];
}

/** `callback-amount-as-written`: a signed callback verifies on the amount as its body writes it. */
export async function callbackAmountAsWritten(s: Steps): Promise<string> {
  const fresh = await freshBooking(s);
  const url = callbackTarget(s, fresh.service);
  await pay(s, fresh.booking_id);
  await callbackOutcome(s, fresh.booking_id);
  const service = s.sandbox.getBooking(fresh.booking_id)!;
  const writings = amountWritings(service.amount);
  for (const written of writings) {
    const exchange = await sendCallback(s, url, await callbackOf(s, service, 'SUCCESS', written));
    if (exchange.status < 200 || exchange.status > 299) {
      fail(
        `the service's signed SUCCESS callback with its amount written ${written} was refused; the signature is over the amount exactly as the body writes it. ` +
          `The docs warn: "${AMOUNT_WARNING}"; ${describe(exchange)}`,
      );
    }
  }
  return `amounts written ${writings.join(', ')}`;
}

/** `callback-signed`: the service's own delivery of a signed callback is answered 2xx. */
export async function callbackSigned(s: Steps): Promise<string> {
  const booking = await paidBooking(s);
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
  const booking = await paidBooking(s);
  const body = await callbackBody(s, {
    amount: booking.service.amount,
    reference_code: booking.service.reference_code,
    correlation_id: booking.correlation_id,
    status: 'SUCCESS',
  });
  const exchange = await sendCallback(s, booking.service.callback_url, body);
  if (exchange.status < 200 || exchange.status > 299) fail(`the signed SUCCESS callback sent again must be answered 2xx; ${describe(exchange)}`);
}

/** `callback-forgeries-refused`: forged and altered callbacks are refused with a 4xx. */
export async function callbackForgeries(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  const values = {
    amount: booking.service.amount,
    reference_code: booking.service.reference_code,
    correlation_id: booking.correlation_id,
    status: 'SUCCESS' as const,
  };
  const url = booking.service.callback_url;
  const cases: Array<[string, string]> = [
    ['a SUCCESS signed with another key', await callbackBody(s, values, { key: `not-${s.sandbox.accessKey}` })],
    ['a SUCCESS whose amount was changed under the signature', await callbackBody(s, { ...values, amount: values.amount + 1 }, { signedOver: { amount: values.amount } })],
    ['a SUCCESS whose status was changed under a FAILED signature', await callbackBody(s, values, { signedOver: { status: 'FAILED' } })],
  ];
  for (const [what, body] of cases) {
    const exchange = await sendCallback(s, url, body);
    if (exchange.status < 400 || exchange.status > 499) fail(`${what} must be refused with a 4xx; ${describe(exchange)}`);
  }
}

/** `callback-unknown-booking`: a callback for a booking the proxy never made is refused, and pays nothing. */
export async function callbackUnknownBooking(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  const body = await callbackBody(s, {
    amount: s.options.amount,
    reference_code: `REF-${randomUUID().replace(/-/g, '').slice(0, 16)}`,
    correlation_id: randomUUID(),
    status: 'SUCCESS',
  });
  const exchange = await sendCallback(s, booking.service.callback_url, body);
  if (exchange.status < 400 || exchange.status > 499) fail(`a signed callback for a booking the proxy never made must be refused with a 4xx; ${describe(exchange)}`);
  // Refused, and the proxy's open order is not paid (a new key for it is not IP-412).
  const again = await s.book('app', booking.order, s.key());
  if (codeOf(again) === 'IP-412') fail(`after a callback for an unknown booking, the proxy's open order reads as paid; ${describe(again)}`);
}

/** `forged-success-not-paid`: a forged SUCCESS leaves the order payable. */
export async function forgedSuccessNotPaid(s: Steps): Promise<void> {
  const booking = await freshBooking(s);
  const body = await callbackBody(s, 
    { amount: booking.service.amount, reference_code: booking.service.reference_code, correlation_id: booking.correlation_id, status: 'SUCCESS' },
    { key: `not-${s.sandbox.accessKey}` },
  );
  await sendCallback(s, booking.service.callback_url, body);
  const exchange = await s.book('app', booking.order, s.key());
  if (codeOf(exchange) === 'IP-412') fail(`after a forged SUCCESS callback the order reads as paid (a new key is IP-412); ${describe(exchange)}`);
}
