/** The checker's clauses on booking: the answer's fields, the amount, the Idempotency-Key, the order, the hand-off's own return page. */
import { randomUUID } from 'node:crypto';
import { clip, describe, printable, readCapped } from '../exchange.js';
import { fail, type Steps } from '../steps.js';
import { atService, freshBooking, deeplinkOf } from './steps.js';

/** `book-app`: an app booking answers the ids and the service's deeplink, for the merchant's amount. */
export async function bookApp(s: Steps): Promise<string> {
  const booking = await freshBooking(s);
  const { data, exchange, service } = booking;
  if (data.channel !== undefined && data.channel !== 'app') fail(`data.channel must be "app"; ${describe(exchange)}`);
  const deeplink = deeplinkOf(s, service);
  if (typeof data.deeplink !== 'string' || data.deeplink !== deeplink) fail(`data.deeplink must be the service's deeplink ${deeplink}; ${describe(exchange)}`);
  if (service.amount !== s.options.amount) fail(`the service was asked for ${service.amount}, not the order's ${s.options.amount}; ${describe(exchange)}`);
  return `callback URL learned from the booking: ${service.callback_url}`;
}

/** `book-web`: a web booking answers an instruction the provider's page accepts. */
export async function bookWeb(s: Steps): Promise<void> {
  const exchange = await s.book('web', s.order(), s.key());
  const { booking_id: bookingId, correlation_id: correlationId, data } = s.booked(exchange);
  atService(s, exchange, bookingId, correlationId);
  if (data.channel !== undefined && data.channel !== 'web') fail(`data.channel must be "web"; ${describe(exchange)}`);
  const web = data.web_payment as { url?: unknown; method?: unknown; fields?: unknown } | undefined;
  if (!web || typeof web.url !== 'string' || (web.method !== 'GET' && web.method !== 'POST')) {
    fail(`data.web_payment must be { url, method: "GET" | "POST", fields? }; ${describe(exchange)}`);
  }
  let url: URL;
  try {
    url = new URL(web!.url as string);
  } catch {
    return fail(`data.web_payment.url is not an absolute URL; ${describe(exchange)}`);
  }
  // Only the sandbox's own page is followed: the checker never goes where an answer points elsewhere.
  if (url.origin !== new URL(s.sandbox.baseUrl).origin) fail(`data.web_payment.url must be on the service (${s.sandbox.baseUrl}); ${describe(exchange)}`);
  const fields = (web!.fields ?? {}) as Record<string, unknown>;
  if (web!.method === 'POST' && (typeof web!.fields !== 'object' || web!.fields === null || Object.values(fields).some((v) => typeof v !== 'string'))) {
    fail(`data.web_payment.fields is required for POST, an object of strings (booking_id, correlation_id, signed_field_names, signature); ${describe(exchange)}`);
  }
  const page = await fetch(url, {
    method: web!.method as string,
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
    ...(web!.method === 'POST'
      ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields as Record<string, string>).toString() }
      : {}),
  });
  const text = await readCapped(page, Date.now() + 10_000);
  if (page.status !== 200 || !text.includes(bookingId)) {
    fail(`the provider's page refused the instruction (HTTP ${page.status}: ${clip(text, 200)}); ${describe(exchange)}`);
  }
}

/** `book-handoff`: a hand-off booking answers the service's deeplink. */
export async function bookHandoff(s: Steps): Promise<void> {
  const exchange = await s.book('app', s.order(), s.key(), { handoff: true });
  const { booking_id: bookingId, correlation_id: correlationId, data } = s.booked(exchange, 'a hand-off booking');
  const service = atService(s, exchange, bookingId, correlationId);
  const deeplink = deeplinkOf(s, service);
  if (data.deeplink !== deeplink) fail(`data.deeplink must be the service's deeplink ${deeplink}; ${describe(exchange)}`);
}

/** `amount-from-merchant`: an amount or price inside the order never reaches the service. */
export async function amountFromMerchant(s: Steps): Promise<void> {
  const wrong = s.options.amount === 1 ? 2 : 1;
  const exchange = await s.book('app', s.order({ amount: wrong, price: wrong }), s.key());
  const { booking_id: bookingId, correlation_id: correlationId } = s.booked(exchange);
  const service = atService(s, exchange, bookingId, correlationId);
  if (service.amount !== s.options.amount) {
    fail(`the order sent by the browser said amount ${wrong}, and the service was asked for ${service.amount}, not the merchant's ${s.options.amount}; ${describe(exchange)}`);
  }
}

/** `top-level-amount-refused`: a priced book body is refused and books nothing. */
export async function topLevelAmount(s: Steps): Promise<void> {
  const before = s.bookingCount();
  const exchange = await s.book('app', s.order(), s.key(), { amount: 1 });
  s.expectCode(exchange, 422, 'IP-422', 'a book body with a top-level "amount"');
  if (s.bookingCount() !== before) fail(`the refused request still booked at the service; ${describe(exchange)}`);
}

/** Bursts of 20 requests at once with one key, each with its own key and order: a race that one burst's timing hides shows in another. */
const KEY_BURSTS = 3;

/** `one-booking-per-key`: a key asked again, in sequence and in bursts of 20 at once, is one booking. */
export async function oneBookingPerKey(s: Steps): Promise<void> {
  let before = s.bookingCount();
  const order = s.order();
  const key = s.key();
  const first = s.booked(await s.book('app', order, key));
  const againExchange = await s.book('app', order, key);
  const again = s.booked(againExchange, 'the same key asked again');
  if (again.booking_id !== first.booking_id) fail(`the same key asked again gave booking ${again.booking_id}, not ${first.booking_id}; ${describe(againExchange)}`);
  if (s.bookingCount() - before !== 1) fail(`one key asked twice made ${s.bookingCount() - before} bookings at the service; ${describe(againExchange)}`);

  for (let burst = 1; burst <= KEY_BURSTS; burst++) {
    before = s.bookingCount();
    const order20 = s.order();
    const key20 = s.key();
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.book('app', order20, key20)));
    const ids = new Set<string>();
    for (const exchange of answers) ids.add(s.booked(exchange, `one of 20 requests at once with one key (burst ${burst} of ${KEY_BURSTS})`).booking_id);
    const made = s.bookingCount() - before;
    if (ids.size !== 1 || made !== 1) {
      fail(`20 requests at once with one key (burst ${burst} of ${KEY_BURSTS}) gave ${ids.size} booking id(s) and made ${made} bookings at the service; ${describe(answers[answers.length - 1]!)}`);
    }
  }
}

/** `key-conflict`: a key with another order or channel is IP-409. */
export async function keyConflict(s: Steps): Promise<void> {
  const order = s.order();
  const key = s.key();
  s.booked(await s.book('app', order, key));
  const before = s.bookingCount();
  s.expectCode(await s.book('app', s.order(), key), 409, 'IP-409', 'the key of one order sent with another order');
  s.expectCode(await s.book('web', order, key), 409, 'IP-409', 'the key of an app booking sent for the web channel');
  if (s.bookingCount() !== before) fail('a refused request still booked at the service');
}

/** `key-invalid`: a missing or malformed key is IP-422. */
export async function keyInvalid(s: Steps): Promise<void> {
  const before = s.bookingCount();
  s.expectCode(await s.book('app', s.order(), undefined), 422, 'IP-422', 'a book without Idempotency-Key');
  s.expectCode(await s.book('app', s.order(), 'short'), 422, 'IP-422', 'an Idempotency-Key of 5 characters');
  s.expectCode(await s.book('app', s.order(), 'has spaces and a comma, see'), 422, 'IP-422', 'an Idempotency-Key with spaces');
  if (s.bookingCount() !== before) fail('a request with a missing or malformed key still booked at the service');
}

/** `unknown-order`: an order the shop does not sell is IP-424. */
export async function unknownOrder(s: Steps): Promise<void> {
  const before = s.bookingCount();
  const exchange = await s.book('app', { id: `unknown-${s.runId}-${randomUUID().slice(0, 8)}` }, s.key());
  s.expectCode(exchange, 422, 'IP-424', 'an order id without the payable prefix');
  if (s.bookingCount() !== before) fail(`the unknown order was booked at the service; ${describe(exchange)}`);
}

/**
 * `handoff-page`: the `redirect_url` of a hand-off booking is a page of its own, not the checkout the
 * other bookings of the order return to: the phone that paid has no session of the desktop's checkout.
 */
export async function handoffPage(s: Steps): Promise<void> {
  const order = s.order();
  const plain = await freshBooking(s, order);
  const exchange = await s.book('app', order, s.key(), { handoff: true });
  const ids = s.booked(exchange, 'a hand-off booking');
  const handoff = atService(s, exchange, ids.booking_id, ids.correlation_id);
  const page = (url: string) => {
    try {
      const parsed = new URL(url);
      return `${parsed.origin}${parsed.pathname}`;
    } catch {
      return url;
    }
  };
  if (page(handoff.redirect_url) === page(plain.service.redirect_url)) {
    fail(
      `the hand-off booking returns the phone to ${printable(handoff.redirect_url)}, the checkout an ordinary booking of the order returns to (${printable(plain.service.redirect_url)}): ` +
        'the phone has no session of the desktop\'s checkout; send it to a page that asks the service and says "go back to your computer"',
    );
  }
}
