/**
 * The intent service's routes on the sandbox's two origins: on the service origin the three API
 * operations, the web payment page (`POST /web/pay` and its forms) and the revert control; on the
 * links origin the wallet page the deeplinks open (behind a redirector in the `esewa-uat` profile).
 * The transport (logging, faults, the JSON reader) is the sandbox's `http.ts`; the booking rules are
 * `service.ts`'s.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES } from '../../protocol/contract.js';
import { verifySignature, WEB_PAYMENT_SIGNED_FIELDS } from '../../protocol/signature.js';
import type { ChaosKey } from '../chaos.js';
import { pause } from '../chaos.js';
import { BodyTooLarge, decodeSegment, MAX_BODY_BYTES, mediaType, readBody, readJsonRequest, sendFailure, sendJson, sendPage, type ProviderRoutes } from '../http.js';
import { languageOf, pageText, type PageTextKey } from '../page-texts.js';
import { closedPage, messagePage, paymentPage, type PageKind } from './pages.js';
import { redirectorLocation } from './profiles.js';
import { INTENT_API_PREFIX, OPERATIONS, type Operation } from './request.js';
import type { ActionResult, SandboxBooking, SandboxService } from './service.js';

/** What the intent service's routes need from the sandbox. */
export interface IntentContext {
  service: SandboxService;
  accessKey: string;
  log: (line: string) => void;
  /** Called after a page action or an admin call changed a booking's status. */
  onStatusChange: (booking: SandboxBooking, notify: boolean) => void;
  /** The links host answers `/pay/{id}` as a redirector by user agent; the wallet page is at `/app/{id}`. */
  linksRedirector?: boolean;
}

function redirectToMerchant(res: ServerResponse, booking: SandboxBooking): void {
  const target = new URL(booking.redirect_url);
  target.searchParams.set('booking_id', booking.booking_id);
  target.searchParams.set('status', booking.status);
  res.writeHead(303, { location: target.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  res.end();
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

function pageFor(ctx: IntentContext, res: ServerResponse, kind: PageKind, bookingId: string, base: string, status = 200, error?: string): void {
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
  ctx: IntentContext,
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
  ctx: IntentContext,
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
async function webPaymentEntry(ctx: IntentContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
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
function revert(ctx: IntentContext, req: IncomingMessage, res: ServerResponse, bookingId: string): void {
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
function intentChaosKey(ctx: IntentContext, path: string, body: string): ChaosKey | undefined {
  const uuidOf = (id: unknown): string => (typeof id === 'string' ? (ctx.service.getBooking(id)?.transaction_uuid ?? id) : '');
  if (path.startsWith(INTENT_API_PREFIX)) {
    const operation = path.slice(INTENT_API_PREFIX.length);
    const fields = jsonFields(body);
    const uuid = fields['transaction_uuid'];
    return { kind: operation, subject: operation === 'book' ? (typeof uuid === 'string' ? uuid : '') : uuidOf(fields['booking_id']) };
  }
  if (path === '/web/pay') return { kind: 'web page', subject: uuidOf(new URLSearchParams(body).get('booking_id') ?? undefined) };
  const page = PAGE_PATH.exec(path);
  if (page) return { kind: `${page[1] === 'web/pay' ? 'web' : 'wallet'} ${page[3] ?? 'page'}`, subject: uuidOf(decodeSegment(page[2]!)) };
  return undefined;
}

/** One API operation: POST with a JSON body, answered by the service (held, or down, as its scenario says). */
async function apiOperation(ctx: IntentContext, req: IncomingMessage, res: ServerResponse, operation: Operation): Promise<void> {
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
}

/**
 * The intent service's routes: `service` on the service origin (the API, the web payment page, the
 * revert control), `links` on the links origin (the wallet page); each answers false for a path not its own.
 */
export function createIntentRoutes(ctx: IntentContext): { service: ProviderRoutes; links: ProviderRoutes } {
  const service: ProviderRoutes = async (req, res, path) => {
    if (path.startsWith(INTENT_API_PREFIX)) {
      const operation = path.slice(INTENT_API_PREFIX.length) as Operation;
      if (OPERATIONS.includes(operation)) {
        await apiOperation(ctx, req, res, operation);
        return true;
      }
    }
    if (path === '/web/pay') {
      await webPaymentEntry(ctx, req, res);
      return true;
    }
    if (path.startsWith('/web/pay/') && (await pageRoutes(ctx, req, res, 'web', '/web/pay', path.slice('/web/pay'.length)))) return true;
    const admin = /^\/sandbox\/bookings\/([^/]+)\/revert$/.exec(path);
    if (!admin) return false;
    revert(ctx, req, res, decodeSegment(admin[1]!));
    return true;
  };
  const links: ProviderRoutes = async (req, res, path) => {
    if (ctx.linksRedirector) {
      const link = /^\/pay\/([^/]+)$/.exec(path);
      if (link && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(302, { location: redirectorLocation(decodeSegment(link[1]!), req.headers['user-agent'] ?? ''), 'cache-control': 'no-store' });
        res.end();
        return true;
      }
      if (path.startsWith('/app/') && (await pageRoutes(ctx, req, res, 'wallet', '/app', path.slice('/app'.length)))) return true;
    }
    return path.startsWith('/pay/') && (await pageRoutes(ctx, req, res, 'wallet', '/pay', path.slice('/pay'.length)));
  };
  service.chaosKey = links.chaosKey = (_req, path, body) => intentChaosKey(ctx, path, body);
  return { service, links };
}
