/**
 * The sandbox's two HTTP front ends on `node:http`: the service origin ({base_url}: the three API
 * operations, the web payment page, the admin control) and the links origin ({links_url}: the wallet
 * page the deeplinks open). Transport rules live here (method, path, content type, body size);
 * booking rules live in `esewa-intent/service.ts`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES, HTTP_STATUS_OF_CODE, type ResponseCode } from '../protocol/contract.js';
import { verifySignature, WEB_PAYMENT_SIGNED_FIELDS } from '../protocol/signature.js';
import type { ActionResult, Operation, SandboxBooking, SandboxService } from './esewa-intent/service.js';
import { closedPage, messagePage, paymentPage, type PageKind } from './esewa-intent/pages.js';
import { languageOf, pageText, type PageTextKey } from './page-texts.js';
import { bufferBody, decideFault, DEFAULT_HOLD_MS, FAULTS, pause, type Chaos, type ChaosKey, type ChaosKeyOf, type FaultDecision } from './chaos.js';
import { redirectorLocation } from './esewa-intent/profiles.js';
import { EPAY_API_PREFIX, EPAY_ERRORS } from './epay/rules.js';

/** Largest request body read (64 KiB); larger bodies get IP-413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** Fields the web payment page's form POST signs (no API operation accepts this set). */

// Past this the connection is dropped instead of drained: nobody legitimately sends it.
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

const API_PREFIX = '/api/client/intent/payment/';
const OPERATIONS: readonly Operation[] = ['book', 'status', 'cancel'];

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** What the HTTP layer needs from the sandbox. */
export interface HttpContext {
  service: SandboxService;
  accessKey: string;
  log: (line: string) => void;
  /** Called after a page action or an admin call changed a booking's status. */
  onStatusChange: (booking: SandboxBooking, notify: boolean) => void;
  /** Seeded faults on the API and the pages (never on `/sandbox/` controls). */
  chaos?: Chaos;
  /** The links host answers `/pay/{id}` as a redirector by user agent; the wallet page is at `/app/{id}`. */
  linksRedirector?: boolean;
  /** The `/sandbox/` controls (clock, scenarios, callback desk); true when it answered. */
  admin?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
  /** eSewa ePay v2 at eSewa's own paths (form, login page, status check); true when it answered. */
  epay?: ProviderRoutes;
  /** Khalti KPG-2 at Khalti's own paths (initiate, lookup, refund, the pay page); true when it answered. */
  khalti?: ProviderRoutes;
}

/** A provider emulation's routes; `chaosKey` names what a request of theirs is about, for chaos. */
export type ProviderRoutes = ((req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>) & { chaosKey?: ChaosKeyOf };

class BodyTooLarge extends Error {}

/** A path segment decoded; a malformed escape is kept as it is (it then matches no booking). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > DRAIN_LIMIT_BYTES) {
      req.destroy();
      break;
    }
    // Keep reading (and discarding) so the client gets the 413 instead of a reset connection.
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  if (tooLarge || size > MAX_BODY_BYTES) throw new BodyTooLarge();
  return Buffer.concat(chunks).toString('utf8');
}

function mediaType(req: IncomingMessage): { type: string; charset?: string } {
  const [type = '', ...params] = (req.headers['content-type'] ?? '').split(';');
  const charset = params
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  return { type: type.trim().toLowerCase(), ...(charset ? { charset } : {}) };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

export function sendFailure(res: ServerResponse, code: ResponseCode, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, HTTP_STATUS_OF_CODE[code], { code, error_message: message }, headers);
}

export function sendPage(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers });
  res.end(html);
}

function redirectToMerchant(res: ServerResponse, booking: SandboxBooking): void {
  const target = new URL(booking.redirect_url);
  target.searchParams.set('booking_id', booking.booking_id);
  target.searchParams.set('status', booking.status);
  res.writeHead(303, { location: target.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
}

function logged(
  ctx: HttpContext,
  origin: string,
  keyOf: ChaosKeyOf,
  handler: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>,
) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? '/', 'http://sandbox.invalid').pathname;
    res.on('finish', () => ctx.log(`${origin} ${req.method} ${path} -> ${res.statusCode}`));
    withFaults(ctx, origin, keyOf, req, res, path, handler).catch((error: unknown) => {
      ctx.log(`${origin} ${req.method} ${path} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (!res.headersSent) sendFailure(res, CODES.INTERNAL, 'Unexpected error in the sandbox.');
      else res.destroy();
    });
  };
}

/**
 * Decides a request's fault, or answers it: an unknown `Wallet-Pay-Fault` is a 400 naming the known
 * ones. A POST body is read first when chaos is on, so the draw can name the booking.
 */
async function decide(ctx: HttpContext, origin: string, keyOf: ChaosKeyOf, req: IncomingMessage, res: ServerResponse, path: string): Promise<FaultDecision | undefined> {
  const decision = await decideFault({
    ...(ctx.chaos ? { chaos: ctx.chaos } : {}),
    header: req.headers['wallet-pay-fault'],
    target: `${origin} ${req.method} ${path}`,
    key: async () => keyOf(req, path, req.method === 'POST' ? await bufferBody(req, MAX_BODY_BYTES, DRAIN_LIMIT_BYTES) : ''),
    log: ctx.log,
  });
  if (!('unknown' in decision)) return decision;
  await readBody(req).catch(() => undefined);
  sendJson(res, 400, { error_message: `Wallet-Pay-Fault must be one of ${FAULTS.join(', ')}; got "${decision.unknown}".`, allowed: FAULTS });
  return undefined;
}

/**
 * Applies a request's fault: latency first; an error is answered at once without running the
 * handler; a timeout runs the handler (the booking is made, as when a real answer is lost) but
 * swallows its answer and drops the connection after the hold; `slow` is latency alone.
 */
async function withFaults(
  ctx: HttpContext,
  origin: string,
  keyOf: ChaosKeyOf,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  handler: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void>,
): Promise<void> {
  if (path.startsWith('/sandbox/')) return handler(req, res, path);
  const decision = await decide(ctx, origin, keyOf, req, res, path);
  if (!decision) return;
  await pause(decision.latencyMs);
  if (decision.fault === 'error') {
    await readBody(req).catch(() => undefined);
    if (path.startsWith(API_PREFIX)) sendFailure(res, CODES.INTERNAL, `Unexpected error in the sandbox (${decision.label}).`);
    else if (path.startsWith(EPAY_API_PREFIX)) sendJson(res, 503, EPAY_ERRORS.statusUnavailable);
    else sendPage(res, 503, messagePage('Service unavailable', `The payment service is unavailable (${decision.label}).`));
    return;
  }
  if (decision.fault === 'timeout') {
    const swallow = function (this: ServerResponse) {
      return this;
    };
    res.writeHead = swallow as never;
    res.write = (() => true) as never;
    res.end = swallow as never;
    try {
      await handler(req, res, path);
    } finally {
      setTimeout(() => res.destroy(), ctx.chaos?.holdMs ?? DEFAULT_HOLD_MS).unref();
    }
    return;
  }
  return handler(req, res, path);
}

export async function readJsonRequest(req: IncomingMessage, res: ServerResponse): Promise<string | undefined> {
  const { type, charset } = mediaType(req);
  if (type !== 'application/json' || (charset && charset !== 'utf-8')) {
    // Drain so the answer is not lost to a reset connection.
    await readBody(req).catch(() => undefined);
    sendFailure(res, CODES.UNSUPPORTED_MEDIA_TYPE, `Content-Type must be application/json (UTF-8); got "${req.headers['content-type'] ?? 'none'}".`);
    return undefined;
  }
  try {
    return await readBody(req);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    sendFailure(res, CODES.PAYLOAD_TOO_LARGE, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    return undefined;
  }
}

async function readForm(req: IncomingMessage, res: ServerResponse): Promise<URLSearchParams | undefined> {
  const { type } = mediaType(req);
  if (type !== 'application/x-www-form-urlencoded') {
    await readBody(req).catch(() => undefined);
    sendPage(res, 415, messagePage('Unsupported form', 'This page accepts only HTML form submissions (application/x-www-form-urlencoded).'));
    return undefined;
  }
  try {
    return new URLSearchParams(await readBody(req));
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    sendPage(res, 413, messagePage('Form too large', `The form is larger than ${MAX_BODY_BYTES} bytes.`));
    return undefined;
  }
}

function pageFor(ctx: HttpContext, res: ServerResponse, kind: PageKind, bookingId: string, base: string, status = 200, error?: string): void {
  const booking = ctx.service.getBooking(bookingId);
  if (!booking) {
    sendPage(res, 404, messagePage('Unknown booking', `There is no booking "${bookingId}".`));
    return;
  }
  const lang = languageOf(res.req.url);
  if (booking.status !== 'BOOKED') {
    const expired = ctx.service.isExpired(booking);
    sendPage(res, expired ? 410 : 409, closedPage(booking, expired, lang));
    return;
  }
  const path = `${base}/${encodeURIComponent(booking.booking_id)}`;
  sendPage(
    res,
    status,
    paymentPage({ kind, booking, confirmAction: `${path}/confirm`, cancelAction: `${path}/cancel`, lang, ...(error ? { error } : {}) }),
  );
}

const ACTION_ERRORS: Readonly<Record<'invalid_mpin' | 'invalid_method' | 'unknown_scenario', PageTextKey>> = {
  invalid_mpin: 'error.mpin',
  invalid_method: 'error.method',
  unknown_scenario: 'error.scenario',
};

/** Answers a confirm or cancel form: the outcome redirects to the merchant; a bad form re-renders. */
async function pageAction(
  ctx: HttpContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: PageKind,
  bookingId: string,
  action: 'confirm' | 'cancel',
  base: string,
): Promise<void> {
  const form = await readForm(req, res);
  if (!form) return;
  const result: ActionResult =
    action === 'confirm'
      ? ctx.service.confirm(bookingId, form.get('mpin') ?? '', form.get('method') ?? '', form.get('scenario') || undefined)
      : ctx.service.cancelByShopper(bookingId);
  if (result.ok) {
    ctx.onStatusChange(result.booking, result.notify);
    redirectToMerchant(res, result.booking);
    return;
  }
  if (result.reason === 'invalid_mpin' || result.reason === 'invalid_method' || result.reason === 'unknown_scenario') {
    pageFor(ctx, res, kind, bookingId, base, 422, pageText(languageOf(req.url), ACTION_ERRORS[result.reason]));
    return;
  }
  pageFor(ctx, res, kind, bookingId, base);
}

/** Routes of a payment page under `base` (`/pay` on the links origin, `/web/pay` on the service origin). */
async function pageRoutes(
  ctx: HttpContext,
  req: IncomingMessage,
  res: ServerResponse,
  kind: PageKind,
  base: string,
  rest: string,
): Promise<boolean> {
  const match = /^\/([^/]+)(?:\/(confirm|cancel))?$/.exec(rest);
  if (!match) return false;
  const bookingId = decodeSegment(match[1]!);
  const action = match[2] as 'confirm' | 'cancel' | undefined;
  if (!action) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendPage(res, 405, messagePage('Method not allowed', 'Open this page with GET.'), { allow: 'GET' });
      return true;
    }
    pageFor(ctx, res, kind, bookingId, base);
    return true;
  }
  if (req.method !== 'POST') {
    sendPage(res, 405, messagePage('Method not allowed', 'Submit this form with POST.'), { allow: 'POST' });
    return true;
  }
  await pageAction(ctx, req, res, kind, bookingId, action, base);
  return true;
}

/** `POST /web/pay`: the merchant's signed form that opens the web payment page. */
async function webPaymentEntry(ctx: HttpContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    sendPage(res, 405, messagePage('Method not allowed', 'The web payment page is opened by a form POST.'), { allow: 'POST' });
    return;
  }
  const form = await readForm(req, res);
  if (!form) return;
  const expected = ['booking_id', 'correlation_id', 'signed_field_names', 'signature'];
  const names = [...new Set(form.keys())];
  const missing = expected.filter((name) => !form.has(name));
  const extra = names.filter((name) => !expected.includes(name));
  if (missing.length > 0 || extra.length > 0 || names.some((name) => form.getAll(name).length > 1)) {
    sendPage(res, 422, messagePage('Invalid payment request', `The form must carry exactly: ${expected.join(', ')}.`));
    return;
  }
  const fields = Object.fromEntries(form) as Record<string, string>;
  if (fields['signed_field_names'] !== WEB_PAYMENT_SIGNED_FIELDS) {
    sendPage(res, 422, messagePage('Invalid payment request', `signed_field_names must be "${WEB_PAYMENT_SIGNED_FIELDS}".`));
    return;
  }
  if (!(await verifySignature(fields, ctx.accessKey, WEB_PAYMENT_SIGNED_FIELDS))) {
    sendPage(res, 401, messagePage('Invalid signature', 'The payment request is not signed by the merchant.'));
    return;
  }
  const booking = ctx.service.getBooking(fields['booking_id']!);
  if (!booking || booking.correlation_id !== fields['correlation_id']) {
    sendPage(res, 404, messagePage('Unknown booking', 'There is no such booking.'));
    return;
  }
  pageFor(ctx, res, 'web', booking.booking_id, '/web/pay');
}

/** The admin control: `POST /sandbox/bookings/{id}/revert` refunds a SUCCESS booking. */
function revert(ctx: HttpContext, req: IncomingMessage, res: ServerResponse, bookingId: string): void {
  if (req.method !== 'POST') {
    sendFailure(res, CODES.METHOD_NOT_ALLOWED, 'Use POST.', { allow: 'POST' });
    return;
  }
  const result = ctx.service.revert(bookingId);
  if (!result.ok) {
    if (result.reason === 'unknown_booking') sendFailure(res, CODES.UNKNOWN_BOOKING, `No booking "${bookingId}".`);
    else sendFailure(res, CODES.ALREADY_PROCESSED, `Only a SUCCESS booking can be reverted; "${bookingId}" is ${result.booking?.status}.`);
    return;
  }
  ctx.onStatusChange(result.booking, result.notify);
  sendJson(res, 200, {
    code: CODES.OK,
    message: 'Transaction reverted',
    data: { booking_id: result.booking.booking_id, status: result.booking.status },
  });
}

/** The `booking_id` a status or cancel request names, for the log (`?` when it names none). */
function bookingIdIn(raw: string): string {
  try {
    const id = (JSON.parse(raw) as { booking_id?: unknown }).booking_id;
    return typeof id === 'string' ? JSON.stringify(id) : '?';
  } catch {
    return '?';
  }
}

const PAGE_PATH = /^\/(web\/pay|pay|app)\/([^/]+)(?:\/(confirm|cancel))?$/;

/** The fields of a JSON object body; none when it is not one. */
function jsonFields(body: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * What an intent service request is about, for chaos: the API operation or page, and the booking's
 * `transaction_uuid` (the merchant's id; booking ids are random, so they would differ run to run).
 */
function intentChaosKey(ctx: HttpContext, path: string, body: string): ChaosKey | undefined {
  const uuidOf = (id: unknown): string => (typeof id === 'string' ? (ctx.service.getBooking(id)?.transaction_uuid ?? id) : '');
  if (path.startsWith(API_PREFIX)) {
    const operation = path.slice(API_PREFIX.length);
    const fields = jsonFields(body);
    const uuid = fields['transaction_uuid'];
    return { kind: operation, subject: operation === 'book' ? (typeof uuid === 'string' ? uuid : '') : uuidOf(fields['booking_id']) };
  }
  if (path === '/web/pay') return { kind: 'web page', subject: uuidOf(new URLSearchParams(body).get('booking_id') ?? undefined) };
  const page = PAGE_PATH.exec(path);
  if (page) return { kind: `${page[1] === 'web/pay' ? 'web' : 'wallet'} ${page[3] ?? 'page'}`, subject: uuidOf(decodeSegment(page[2]!)) };
  return undefined;
}

/** Request handler of the service origin. */
export function createServiceHandler(ctx: HttpContext) {
  ctx.chaos?.resolveBookings((id) => ctx.service.getBooking(id)?.transaction_uuid);
  const keyOf: ChaosKeyOf = (req, path, body) => intentChaosKey(ctx, path, body) ?? ctx.epay?.chaosKey?.(req, path, body) ?? ctx.khalti?.chaosKey?.(req, path, body);
  return logged(ctx, 'service', keyOf, async (req, res, path) => {
    if (path.startsWith(API_PREFIX)) {
      const operation = path.slice(API_PREFIX.length) as Operation;
      if (OPERATIONS.includes(operation)) {
        if (req.method !== 'POST') {
          sendFailure(res, CODES.METHOD_NOT_ALLOWED, `${req.method} is not allowed; use POST.`, { allow: 'POST' });
          return;
        }
        const raw = await readJsonRequest(req, res);
        if (raw === undefined) return;
        const header = req.headers['wallet-pay-scenario'];
        const result = await ctx.service.handle(operation, raw, typeof header === 'string' ? { headerScenario: header } : {});
        if (result.ignoredFields) {
          ctx.log(`warning: ${operation} ignored field(s) the spec does not list: ${result.ignoredFields.join(', ')} (--strict refuses them)`);
        }
        if (operation !== 'book') ctx.log(`${operation} asked for booking ${bookingIdIn(raw)} -> ${result.body.code}`);
        if (result.scenario) {
          const id = (result.body as { data?: { booking_id?: string } }).data?.booking_id ?? bookingIdIn(raw);
          ctx.log(`${operation} ${id} [${result.scenario}]${result.delayMs ? ` held ${result.delayMs} ms` : ''}${result.outage ? ': 503 (service down)' : ''}`);
        }
        await pause(result.delayMs ?? 0);
        if (result.outage) {
          res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '60', 'cache-control': 'no-store' });
          res.end('Service Unavailable');
          return;
        }
        sendJson(res, result.httpStatus, result.body);
        return;
      }
    }
    if (ctx.epay && (await ctx.epay(req, res, path))) return;
    if (ctx.khalti && (await ctx.khalti(req, res, path))) return;
    if (path === '/web/pay') return webPaymentEntry(ctx, req, res);
    if (path.startsWith('/web/pay/') && (await pageRoutes(ctx, req, res, 'web', '/web/pay', path.slice('/web/pay'.length)))) return;
    const admin = /^\/sandbox\/bookings\/([^/]+)\/revert$/.exec(path);
    if (admin) return revert(ctx, req, res, decodeSegment(admin[1]!));
    if (path.startsWith('/sandbox/') && ctx.admin && (await ctx.admin(req, res, path))) return;
    sendFailure(res, CODES.NOT_FOUND, `No endpoint at ${path}.`);
  });
}

/** Request handler of the links origin (the wallet page). */
export function createLinksHandler(ctx: HttpContext) {
  return logged(ctx, 'links', (_req, path, body) => intentChaosKey(ctx, path, body), async (req, res, path) => {
    if (ctx.linksRedirector) {
      const link = /^\/pay\/([^/]+)$/.exec(path);
      if (link && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(302, { location: redirectorLocation(decodeSegment(link[1]!), req.headers['user-agent'] ?? ''), 'cache-control': 'no-store' });
        res.end();
        return;
      }
      if (path.startsWith('/app/') && (await pageRoutes(ctx, req, res, 'wallet', '/app', path.slice('/app'.length)))) return;
    }
    if (path.startsWith('/pay/') && (await pageRoutes(ctx, req, res, 'wallet', '/pay', path.slice('/pay'.length)))) return;
    sendPage(res, 404, messagePage('Not found', `Nothing at ${path}.`));
  });
}
