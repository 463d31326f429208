/**
 * The conformance checker: proves a running book proxy, in any language, from outside, the way the
 * element and the payment service use it. It starts the sandbox of the service on a given port (the
 * proxy under test points its service URL there, with the sandbox's default access key and product
 * code), runs each clause of `CLAUSES` on fresh orders, pays bookings itself through the sandbox's
 * wallet page, and learns the proxy's callback URL from the bookings the proxy makes.
 */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox, type SandboxBooking } from '../sandbox/index.js';
import { IDEMPOTENCY_HEADER, type PaymentStatus } from '../protocol/contract.js';
import { createSignature, SIGNED_FIELDS } from '../protocol/signature.js';
import { CLAUSES, type ClauseId } from './clauses.js';
import { clip, codeOf, dataOf, describe, Recorder, type Exchange } from './exchange.js';

/** Options of {@link runCheck}. */
export interface CheckOptions {
  /** The proxy's base URL: the checker POSTs to `${endpoint}/book`, `/status`, `/cancel`. */
  endpoint: string;
  /** Port the sandbox listens on; the proxy's service URL is `http://127.0.0.1:<port>`. */
  sandboxPort: number;
  /** Every order whose `id` starts with this is payable at the proxy, for `amount`. */
  orderPrefix: string;
  /** The amount the proxy charges for such an order. */
  amount: number;
  /** Port of the sandbox's links origin (the wallet page); default a free port. */
  linksPort?: number;
  /** Told each clause's result as soon as it is known. */
  onClause?(result: ClauseResult): void;
  /** Longest time one clause may take; default 60 s. */
  clauseTimeoutMs?: number;
}

/** The verdict on one clause. */
export interface ClauseResult {
  id: ClauseId;
  title: string;
  ok: boolean;
  /** For a failure: what was sent, what came back, and the section the proxy breaks. Else a short note. */
  detail: string;
}

/** The whole run. */
export interface CheckReport {
  clauses: ClauseResult[];
  passed: number;
  failed: number;
}

/** Thrown inside a clause: the proxy broke it. */
class ClauseFailure extends Error {}

const fail = (message: string): never => {
  throw new ClauseFailure(message);
};

/** The MPIN the sandbox accepts (any 4 to 6 digits but 0000). */
const GOOD_MPIN = '1234';

/** Checks options and throws a `TypeError` naming the first bad one. */
export function checkOptions(options: CheckOptions): void {
  let url: URL;
  try {
    url = new URL(options.endpoint);
  } catch {
    throw new TypeError(`--endpoint must be an absolute http(s) URL; got "${options.endpoint}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`--endpoint must be an http(s) URL; got "${options.endpoint}".`);
  if (!Number.isInteger(options.sandboxPort) || options.sandboxPort < 1 || options.sandboxPort > 65535) {
    throw new TypeError(`--sandbox-port must be a whole number from 1 to 65535; got ${options.sandboxPort}.`);
  }
  if (typeof options.orderPrefix !== 'string' || !/^[A-Za-z0-9_.:-]{1,32}$/.test(options.orderPrefix)) {
    throw new TypeError(`--order-prefix must be 1 to 32 letters, digits, "-", "_", "." or ":"; got "${options.orderPrefix}".`);
  }
  const cents = options.amount * 100;
  if (!(typeof options.amount === 'number' && options.amount > 0 && options.amount <= 999_999_999.99 && Math.abs(Math.round(cents) - cents) < 1e-6)) {
    throw new TypeError(`--amount must be a positive amount with at most two decimals; got ${options.amount}.`);
  }
}

/**
 * Runs every clause against the proxy at `options.endpoint` and returns the verdicts. Starts and stops
 * the sandbox itself; never throws for a proxy's fault (that is a failed clause).
 */
export async function runCheck(options: CheckOptions): Promise<CheckReport> {
  checkOptions(options);
  const sandbox = await startSandbox({
    port: options.sandboxPort,
    linksPort: options.linksPort ?? 0,
    // Short retries: a proxy that refuses the first delivery is seen within a second.
    callbackRetry: { attempts: 3, baseDelayMs: 200 },
  });
  const results: ClauseResult[] = [];
  try {
    const run = new Run(options, sandbox);
    for (const clause of CLAUSES) {
      const result = await run.clause(clause.id, clause.title, clause.section, options.clauseTimeoutMs ?? 60_000);
      results.push(result);
      options.onClause?.(result);
    }
  } finally {
    await sandbox.close();
  }
  const passed = results.filter((r) => r.ok).length;
  return { clauses: results, passed, failed: results.length - passed };
}

/** One run's state: the recorder, the order counter, the sandbox. */
class Run {
  private readonly http = new Recorder();
  private readonly endpoint: string;
  private readonly runId = randomUUID().slice(0, 8);
  private orderCount = 0;

  constructor(
    private readonly options: CheckOptions,
    private readonly sandbox: Sandbox,
  ) {
    this.endpoint = options.endpoint.replace(/\/+$/, '');
  }

  async clause(id: ClauseId, title: string, section: string, timeoutMs: number): Promise<ClauseResult> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const note = await Promise.race([
        this.body(id),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new ClauseFailure(`did not finish within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return { id, title, ok: true, detail: note ?? '' };
    } catch (error) {
      const message = error instanceof ClauseFailure ? error.message : `the checker could not run it: ${error instanceof Error ? error.message : String(error)}`;
      return { id, title, ok: false, detail: `${message}; breaks: ${section}` };
    } finally {
      clearTimeout(timer);
    }
  }

  // ---- the steps clauses are made of ----

  private order(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { id: `${this.options.orderPrefix}${this.runId}-${++this.orderCount}`, ...extra };
  }

  private key(): string {
    return `check-${randomUUID()}`;
  }

  private url(route: string): string {
    return `${this.endpoint}/${route}`;
  }

  private book(channel: string, order: unknown, key: string | undefined, extra: Record<string, unknown> = {}): Promise<Exchange> {
    return this.http.send(this.url('book'), {
      headers: key === undefined ? {} : { [IDEMPOTENCY_HEADER]: key },
      body: { channel, order, ...extra },
    });
  }

  private post(route: 'status' | 'cancel', bookingId: string, correlationId: string): Promise<Exchange> {
    return this.http.send(this.url(route), { body: { booking_id: bookingId, correlation_id: correlationId } });
  }

  private bookingCount(): number {
    return this.sandbox.listBookings().length;
  }

  /** A successful book answer's ids; fails the clause otherwise. */
  private booked(exchange: Exchange, what = 'a booking'): { booking_id: string; correlation_id: string; data: Record<string, unknown> } {
    if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`expected 200 IP-201 for ${what}; ${describe(exchange)}`);
    const data = dataOf(exchange);
    const { booking_id: bookingId, correlation_id: correlationId } = data;
    if (typeof bookingId !== 'string' || typeof correlationId !== 'string' || !bookingId || !correlationId) {
      fail(`data.booking_id and data.correlation_id must be non-empty strings; ${describe(exchange)}`);
    }
    return { booking_id: bookingId as string, correlation_id: correlationId as string, data };
  }

  /** The service's record of a booking the proxy made; fails the clause when the service has none. */
  private atService(exchange: Exchange, bookingId: string, correlationId: string): SandboxBooking {
    const booking = this.sandbox.getBooking(bookingId);
    if (!booking) fail(`the answer names booking ${bookingId}, which the service never made; ${describe(exchange)}`);
    if (booking!.correlation_id !== correlationId) {
      fail(`the answer's correlation_id is not the service's for ${bookingId} (${booking!.correlation_id}); ${describe(exchange)}`);
    }
    return booking!;
  }

  private expectCode(exchange: Exchange, status: number, code: string, why: string): void {
    if (exchange.status !== status || codeOf(exchange) !== code) fail(`${why}: expected ${status} ${code}; ${describe(exchange)}`);
  }

  /** Books a fresh order for the app channel and returns the ids and the service's record. */
  private async freshBooking(order = this.order(), key = this.key()) {
    const exchange = await this.book('app', order, key);
    const ids = this.booked(exchange);
    return { ...ids, order, key, exchange, service: this.atService(exchange, ids.booking_id, ids.correlation_id) };
  }

  /** The deeplink the service answered for a booking. */
  private deeplinkOf(booking: SandboxBooking): string {
    return `${this.sandbox.linksUrl}/pay/${booking.booking_id}`;
  }

  /** Pays a booking on the sandbox's wallet page, as the shopper would. */
  private async pay(bookingId: string): Promise<void> {
    const response = await fetch(`${this.sandbox.linksUrl}/pay/${encodeURIComponent(bookingId)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mpin: GOOD_MPIN, method: 'wallet_balance' }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    await response.body?.cancel();
    const status = this.sandbox.getBooking(bookingId)?.status;
    if (status !== 'SUCCESS') throw new Error(`paying ${bookingId} at the sandbox left it ${status} (HTTP ${response.status}).`);
  }

  /** Waits until the sandbox has delivered (or given up on) the callback of a booking. */
  private async callbackOutcome(bookingId: string, timeoutMs = 15_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const attempts = this.sandbox.callbackAttempts().filter((a) => a.booking_id === bookingId);
      const last = attempts[attempts.length - 1];
      if (last && (last.delivered || last.attempt >= 3)) return attempts;
      if (Date.now() > deadline) return attempts;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** A callback body as the service writes it, signed over `signedOver` (default: the same values) with `key`. */
  private async callbackBody(
    values: { amount: number; reference_code: string; correlation_id: string; status: PaymentStatus },
    options: { key?: string; signedOver?: Partial<typeof values> } = {},
  ): Promise<string> {
    const sent = { product_code: this.sandbox.productCodes[0]!, ...values, signed_field_names: SIGNED_FIELDS.callback };
    const signature = await createSignature({ ...sent, ...options.signedOver }, SIGNED_FIELDS.callback, options.key ?? this.sandbox.accessKey);
    return JSON.stringify({ ...sent, signature });
  }

  private sendCallback(url: string, body: string): Promise<Exchange> {
    return this.http.send(url, { body });
  }

  /** A paid booking whose callback the sandbox has delivered (or tried to). */
  private async paidBooking() {
    const booking = await this.freshBooking();
    await this.pay(booking.booking_id);
    const attempts = await this.callbackOutcome(booking.booking_id);
    return { ...booking, attempts, service: this.sandbox.getBooking(booking.booking_id)! };
  }

  // ---- the clauses ----

  private body(id: ClauseId): Promise<string | void> {
    switch (id) {
      case 'book-app':
        return this.bookApp();
      case 'book-web':
        return this.bookWeb();
      case 'book-handoff':
        return this.bookHandoff();
      case 'amount-from-merchant':
        return this.amountFromMerchant();
      case 'top-level-amount-refused':
        return this.topLevelAmount();
      case 'one-booking-per-key':
        return this.oneBookingPerKey();
      case 'key-conflict':
        return this.keyConflict();
      case 'key-invalid':
        return this.keyInvalid();
      case 'unknown-order':
        return this.unknownOrder();
      case 'status-wrong-correlation':
        return this.wrongCorrelation('status');
      case 'cancel-wrong-correlation':
        return this.wrongCorrelation('cancel');
      case 'status-follows-service':
        return this.statusFollowsService();
      case 'cancel-open':
        return this.cancelOpen();
      case 'cancel-paid':
        return this.cancelPaid();
      case 'paid-order-refused':
        return this.paidOrderRefused();
      case 'callback-signed':
        return this.callbackSigned();
      case 'callback-replay':
        return this.callbackReplay();
      case 'callback-forgeries-refused':
        return this.callbackForgeries();
      case 'callback-unknown-booking':
        return this.callbackUnknownBooking();
      case 'forged-success-not-paid':
        return this.forgedSuccessNotPaid();
      case 'method-not-allowed':
        return this.methodNotAllowed();
      case 'payload-too-large':
        return this.payloadTooLarge();
      case 'unsupported-media-type':
        return this.unsupportedMediaType();
      case 'failure-not-2xx':
        return this.failureNot2xx();
      case 'no-redirect':
        return this.noRedirect();
      case 'content-type-json':
        return this.everyAnswer((e) => {
          const [type = '', ...params] = (e.answerHeaders.get('content-type') ?? '').toLowerCase().split(';').map((p) => p.trim());
          return type === 'application/json' && params.some((p) => p.replace(/\s/g, '').replace(/"/g, '') === 'charset=utf-8');
        }, 'Content-Type is not application/json; charset=utf-8');
      case 'no-store':
        return this.everyAnswer(
          (e) => (e.answerHeaders.get('cache-control') ?? '').toLowerCase().split(',').some((p) => p.trim() === 'no-store'),
          'Cache-Control lacks no-store',
        );
      case 'nosniff':
        return this.everyAnswer((e) => (e.answerHeaders.get('x-content-type-options') ?? '').trim().toLowerCase() === 'nosniff', 'X-Content-Type-Options is not nosniff');
    }
  }

  private async bookApp(): Promise<string> {
    const booking = await this.freshBooking();
    const { data, exchange, service } = booking;
    if (data.channel !== undefined && data.channel !== 'app') fail(`data.channel must be "app"; ${describe(exchange)}`);
    const deeplink = this.deeplinkOf(service);
    if (typeof data.deeplink !== 'string' || data.deeplink !== deeplink) fail(`data.deeplink must be the service's deeplink ${deeplink}; ${describe(exchange)}`);
    if (service.amount !== this.options.amount) fail(`the service was asked for ${service.amount}, not the order's ${this.options.amount}; ${describe(exchange)}`);
    return `callback URL learned from the booking: ${service.callback_url}`;
  }

  private async bookWeb(): Promise<void> {
    const exchange = await this.book('web', this.order(), this.key());
    const { booking_id: bookingId, correlation_id: correlationId, data } = this.booked(exchange);
    this.atService(exchange, bookingId, correlationId);
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
    if (url.origin !== new URL(this.sandbox.baseUrl).origin) fail(`data.web_payment.url must be on the service (${this.sandbox.baseUrl}); ${describe(exchange)}`);
    const fields = (web!.fields ?? {}) as Record<string, unknown>;
    if (web!.method === 'POST' && (typeof fields !== 'object' || Object.values(fields).some((v) => typeof v !== 'string'))) {
      fail(`data.web_payment.fields must be an object of strings; ${describe(exchange)}`);
    }
    const page = await fetch(url, {
      method: web!.method as string,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
      ...(web!.method === 'POST'
        ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields as Record<string, string>).toString() }
        : {}),
    });
    const text = await page.text();
    if (page.status !== 200 || !text.includes(bookingId)) {
      fail(`the provider's page refused the instruction (HTTP ${page.status}: ${clip(text.replace(/<[^>]+>/g, ' '), 160)}); ${describe(exchange)}`);
    }
  }

  private async bookHandoff(): Promise<void> {
    const exchange = await this.book('app', this.order(), this.key(), { handoff: true });
    const { booking_id: bookingId, correlation_id: correlationId, data } = this.booked(exchange, 'a hand-off booking');
    const service = this.atService(exchange, bookingId, correlationId);
    const deeplink = this.deeplinkOf(service);
    if (data.deeplink !== deeplink) fail(`data.deeplink must be the service's deeplink ${deeplink}; ${describe(exchange)}`);
  }

  private async amountFromMerchant(): Promise<void> {
    const wrong = this.options.amount === 1 ? 2 : 1;
    const exchange = await this.book('app', this.order({ amount: wrong, price: wrong }), this.key());
    const { booking_id: bookingId, correlation_id: correlationId } = this.booked(exchange);
    const service = this.atService(exchange, bookingId, correlationId);
    if (service.amount !== this.options.amount) {
      fail(`the order sent by the browser said amount ${wrong}, and the service was asked for ${service.amount}, not the merchant's ${this.options.amount}; ${describe(exchange)}`);
    }
  }

  private async topLevelAmount(): Promise<void> {
    const before = this.bookingCount();
    const exchange = await this.book('app', this.order(), this.key(), { amount: 1 });
    this.expectCode(exchange, 422, 'IP-422', 'a book body with a top-level "amount"');
    if (this.bookingCount() !== before) fail(`the refused request still booked at the service; ${describe(exchange)}`);
  }

  private async oneBookingPerKey(): Promise<void> {
    let before = this.bookingCount();
    const order = this.order();
    const key = this.key();
    const first = this.booked(await this.book('app', order, key));
    const againExchange = await this.book('app', order, key);
    const again = this.booked(againExchange, 'the same key asked again');
    if (again.booking_id !== first.booking_id) fail(`the same key asked again gave booking ${again.booking_id}, not ${first.booking_id}; ${describe(againExchange)}`);
    if (this.bookingCount() - before !== 1) fail(`one key asked twice made ${this.bookingCount() - before} bookings at the service; ${describe(againExchange)}`);

    before = this.bookingCount();
    const order20 = this.order();
    const key20 = this.key();
    const answers = await Promise.all(Array.from({ length: 20 }, () => this.book('app', order20, key20)));
    const ids = new Set<string>();
    for (const exchange of answers) ids.add(this.booked(exchange, 'one of 20 requests at once with one key').booking_id);
    const made = this.bookingCount() - before;
    if (ids.size !== 1 || made !== 1) {
      fail(`20 requests at once with one key gave ${ids.size} booking id(s) and made ${made} bookings at the service; ${describe(answers[answers.length - 1]!)}`);
    }
  }

  private async keyConflict(): Promise<void> {
    const order = this.order();
    const key = this.key();
    this.booked(await this.book('app', order, key));
    const before = this.bookingCount();
    this.expectCode(await this.book('app', this.order(), key), 409, 'IP-409', 'the key of one order sent with another order');
    this.expectCode(await this.book('web', order, key), 409, 'IP-409', 'the key of an app booking sent for the web channel');
    if (this.bookingCount() !== before) fail('a refused request still booked at the service');
  }

  private async keyInvalid(): Promise<void> {
    const before = this.bookingCount();
    this.expectCode(await this.book('app', this.order(), undefined), 422, 'IP-422', 'a book without Idempotency-Key');
    this.expectCode(await this.book('app', this.order(), 'short'), 422, 'IP-422', 'an Idempotency-Key of 5 characters');
    this.expectCode(await this.book('app', this.order(), 'has spaces and a comma, see'), 422, 'IP-422', 'an Idempotency-Key with spaces');
    if (this.bookingCount() !== before) fail('a request with a missing or malformed key still booked at the service');
  }

  private async unknownOrder(): Promise<void> {
    const before = this.bookingCount();
    const exchange = await this.book('app', { id: `unknown-${this.runId}-${randomUUID().slice(0, 8)}` }, this.key());
    this.expectCode(exchange, 422, 'IP-424', 'an order id without the payable prefix');
    if (this.bookingCount() !== before) fail(`the unknown order was booked at the service; ${describe(exchange)}`);
  }

  private async wrongCorrelation(route: 'status' | 'cancel'): Promise<void> {
    const booking = await this.freshBooking();
    this.expectCode(await this.post(route, booking.booking_id, randomUUID()), 404, 'IP-404', `${route} with another correlation id`);
    this.expectCode(await this.post(route, `BK-${randomUUID()}`, booking.correlation_id), 404, 'IP-404', `${route} with a booking id the proxy never made`);
    const status = this.sandbox.getBooking(booking.booking_id)?.status;
    if (status !== 'BOOKED') fail(`after ${route} with the wrong correlation id the booking is ${status} at the service, not BOOKED`);
  }

  private async statusIs(booking: { booking_id: string; correlation_id: string }, expected: PaymentStatus, when: string): Promise<void> {
    const exchange = await this.post('status', booking.booking_id, booking.correlation_id);
    if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') fail(`status ${when}: expected 200 IP-201; ${describe(exchange)}`);
    const data = dataOf(exchange);
    if (data.booking_id !== booking.booking_id || data.status !== expected) {
      fail(`status ${when} must read ${expected} for ${booking.booking_id}; ${describe(exchange)}`);
    }
  }

  private async statusFollowsService(): Promise<void> {
    const booking = await this.freshBooking();
    await this.statusIs(booking, 'BOOKED', 'before the payment');
    await this.pay(booking.booking_id);
    await this.statusIs(booking, 'SUCCESS', 'after the payment at the service');
  }

  private async cancelOpen(): Promise<void> {
    const booking = await this.freshBooking();
    const exchange = await this.post('cancel', booking.booking_id, booking.correlation_id);
    this.expectCode(exchange, 200, 'IP-210', 'cancel of an open booking');
    if (dataOf(exchange).status !== 'CANCELED') fail(`data.status must be CANCELED; ${describe(exchange)}`);
    const status = this.sandbox.getBooking(booking.booking_id)?.status;
    if (status !== 'CANCELED') fail(`the booking is ${status} at the service after the cancel; ${describe(exchange)}`);
  }

  private async cancelPaid(): Promise<void> {
    const booking = await this.freshBooking();
    await this.pay(booking.booking_id);
    this.expectCode(await this.post('cancel', booking.booking_id, booking.correlation_id), 409, 'IP-410', 'cancel of a paid booking');
  }

  private async paidOrderRefused(): Promise<void> {
    const booking = await this.paidBooking();
    // The proxy may learn the payment from the callback or from a status check: both have happened.
    await this.post('status', booking.booking_id, booking.correlation_id);
    const before = this.bookingCount();
    const exchange = await this.book('app', booking.order, this.key());
    this.expectCode(exchange, 409, 'IP-412', 'a new key for an order already paid');
    if (this.bookingCount() !== before) fail(`the paid order was booked again at the service; ${describe(exchange)}`);
  }

  private async callbackSigned(): Promise<string> {
    const booking = await this.paidBooking();
    const first = booking.attempts[0];
    if (!first) fail(`the service's callback to ${booking.service.callback_url} was not attempted within 15 s`);
    if (!first!.delivered) {
      const all = booking.attempts.map((a) => (a.status !== undefined ? `HTTP ${a.status}` : a.error)).join(', ');
      fail(`the service's signed SUCCESS callback to ${first!.url} was answered ${all}, not 2xx`);
    }
    return `delivered to ${first!.url}`;
  }

  private async callbackReplay(): Promise<void> {
    const booking = await this.paidBooking();
    const body = await this.callbackBody({
      amount: booking.service.amount,
      reference_code: booking.service.reference_code,
      correlation_id: booking.correlation_id,
      status: 'SUCCESS',
    });
    const exchange = await this.sendCallback(booking.service.callback_url, body);
    if (exchange.status < 200 || exchange.status > 299) fail(`the signed SUCCESS callback sent again must be answered 2xx; ${describe(exchange)}`);
  }

  private async callbackForgeries(): Promise<void> {
    const booking = await this.freshBooking();
    const values = {
      amount: booking.service.amount,
      reference_code: booking.service.reference_code,
      correlation_id: booking.correlation_id,
      status: 'SUCCESS' as const,
    };
    const url = booking.service.callback_url;
    const cases: Array<[string, string]> = [
      ['a SUCCESS signed with another key', await this.callbackBody(values, { key: `not-${this.sandbox.accessKey}` })],
      ['a SUCCESS whose amount was changed under the signature', await this.callbackBody({ ...values, amount: values.amount + 1 }, { signedOver: { amount: values.amount } })],
      ['a SUCCESS whose status was changed under a FAILED signature', await this.callbackBody(values, { signedOver: { status: 'FAILED' } })],
    ];
    for (const [what, body] of cases) {
      const exchange = await this.sendCallback(url, body);
      if (exchange.status < 400 || exchange.status > 499) fail(`${what} must be refused with a 4xx; ${describe(exchange)}`);
    }
  }

  private async callbackUnknownBooking(): Promise<string | void> {
    const booking = await this.freshBooking();
    const body = await this.callbackBody({
      amount: this.options.amount,
      reference_code: `REF-${randomUUID().replace(/-/g, '').slice(0, 16)}`,
      correlation_id: randomUUID(),
      status: 'SUCCESS',
    });
    const exchange = await this.sendCallback(booking.service.callback_url, body);
    if (exchange.status >= 400 && exchange.status <= 499) return;
    if (exchange.status < 200 || exchange.status > 299) fail(`a signed callback for a booking the proxy never made must be refused with a 4xx; ${describe(exchange)}`);
    // Acknowledged: it must not have paid anything. The open order still books again.
    const again = await this.book('app', booking.order, this.key());
    if (again.status !== 200) fail(`after a callback for an unknown booking was acknowledged, the proxy's open order no longer books; ${describe(again)}`);
    return 'acknowledged with 2xx and no order changed (a 4xx is clearer)';
  }

  private async forgedSuccessNotPaid(): Promise<void> {
    const booking = await this.freshBooking();
    const body = await this.callbackBody(
      { amount: booking.service.amount, reference_code: booking.service.reference_code, correlation_id: booking.correlation_id, status: 'SUCCESS' },
      { key: `not-${this.sandbox.accessKey}` },
    );
    await this.sendCallback(booking.service.callback_url, body);
    const exchange = await this.book('app', booking.order, this.key());
    if (exchange.status !== 200 || codeOf(exchange) !== 'IP-201') {
      fail(`after a forged SUCCESS callback the order must still book with a new key; ${describe(exchange)}`);
    }
  }

  private async methodNotAllowed(): Promise<void> {
    for (const [method, route] of [['GET', 'book'], ['GET', 'status'], ['PUT', 'cancel']] as const) {
      const exchange = await this.http.send(this.url(route), { method, ...(method === 'PUT' ? { body: {} } : {}) });
      this.expectCode(exchange, 405, 'IP-405', `${method} /${route}`);
      const allow = (exchange.answerHeaders.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
      if (!allow.includes('POST')) fail(`the 405 must carry Allow: POST; got Allow: ${exchange.answerHeaders.get('allow') ?? '(none)'}; ${describe(exchange)}`);
    }
  }

  private async payloadTooLarge(): Promise<void> {
    const before = this.bookingCount();
    const exchange = await this.book('app', this.order({ note: 'x'.repeat(1024 * 1024) }), this.key());
    this.expectCode(exchange, 413, 'IP-413', 'a book body of 1 MiB');
    if (this.bookingCount() !== before) fail('the body of 1 MiB was booked at the service');
  }

  private async unsupportedMediaType(): Promise<void> {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const exchange = await this.http.send(this.url('book'), {
        headers: { [IDEMPOTENCY_HEADER]: this.key() },
        contentType: type,
        body: { channel: 'app', order: this.order() },
      });
      this.expectCode(exchange, 415, 'IP-415', `a book body sent as ${type}`);
    }
  }

  private async failureNot2xx(): Promise<void> {
    const probes = [
      await this.http.send(this.url('book'), { headers: { [IDEMPOTENCY_HEADER]: this.key() }, body: '{"channel":"app","order":' }),
      await this.http.send(this.url('status'), { body: {} }),
      await this.http.send(this.url('cancel'), { body: { booking_id: 1, correlation_id: null } }),
      await this.http.send(`${this.endpoint}/no-such-route-${this.runId}`, { body: {} }),
    ];
    for (const probe of probes) if (probe.error !== undefined) fail(describe(probe));
    // The probes are judged with every answer so far, below.
    for (const exchange of this.proxyAnswers()) {
      const json = exchange.json as { code?: unknown; error_message?: unknown; data?: unknown } | undefined;
      const ok2xx = exchange.status >= 200 && exchange.status <= 299;
      const isCallback = !/\/(book|status|cancel)$/.test(new URL(exchange.url).pathname);
      if (ok2xx && json && typeof json === 'object' && 'error_message' in json) fail(`a failure envelope came with ${exchange.status}; ${describe(exchange)}`);
      if (ok2xx && !isCallback && !(json && (json.code === 'IP-201' || json.code === 'IP-210') && typeof json.data === 'object')) {
        fail(`a 2xx must be a success envelope { code: "IP-201" | "IP-210", message, data }; ${describe(exchange)}`);
      }
      if (!ok2xx && exchange.status >= 400 && !(json && typeof json.code === 'string' && typeof json.error_message === 'string')) {
        fail(`a failure must be a failure envelope { code, error_message }; ${describe(exchange)}`);
      }
    }
  }

  private async noRedirect(): Promise<void> {
    const probe = await this.http.send(`${this.endpoint}/no-such-route-${this.runId}`, { body: {} });
    if (probe.error !== undefined) fail(describe(probe));
    for (const exchange of this.http.log) {
      if (exchange.status >= 300 && exchange.status <= 399) {
        fail(`a redirect (to ${exchange.answerHeaders.get('location') ?? 'nowhere'}): the element never follows one; ${describe(exchange)}`);
      }
    }
  }

  /** Answers to judge by their headers: answered, and not redirects (the redirect clause judges those). */
  private proxyAnswers(): Exchange[] {
    return this.http.log.filter((e) => e.error === undefined && (e.status < 300 || e.status > 399));
  }

  private async everyAnswer(ok: (exchange: Exchange) => boolean, problem: string): Promise<string> {
    const answers = this.proxyAnswers();
    if (answers.length === 0) fail('the proxy gave no answer to judge');
    const bad = answers.filter((e) => !ok(e));
    if (bad.length > 0) {
      const headerLine = ['content-type', 'cache-control', 'x-content-type-options'].map((h) => `${h}: ${bad[0]!.answerHeaders.get(h) ?? '(none)'}`).join(', ');
      fail(`${problem} on ${bad.length} of ${answers.length} answers, first (${headerLine}); ${describe(bad[0]!)}`);
    }
    return `${answers.length} answers`;
  }
}
