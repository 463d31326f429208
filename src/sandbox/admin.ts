/**
 * The sandbox's own controls under `{base_url}/sandbox/`: the clock, the scenarios (the catalogue and
 * the sticky choice per product code), a booking's record, and the callback desk (its JSON, its page,
 * resending). Unauthenticated, as sandbox-only controls; chaos never touches them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES } from '../protocol/contract.js';
import type { CallbackDispatcher, CallbackDelivery } from './esewa-intent/callbacks.js';
import { CLOCK_LIMIT_MS, ClockRangeError, parseDuration, type SandboxClock } from './clock.js';
import { readJsonRequest, sendFailure, sendJson, sendPage } from './http.js';
import { deskPage } from './esewa-intent/pages.js';
import { findScenario, magicAmountOf, SCENARIOS } from './esewa-intent/scenarios.js';
import type { SandboxService } from './esewa-intent/service.js';

/** What the controls reach. */
export interface AdminContext {
  service: SandboxService;
  clock: SandboxClock;
  dispatcher: CallbackDispatcher;
  productCodes: readonly string[];
  log: (line: string) => void;
  /** Called after the clock moved or a sticky scenario changed (the state file is written). */
  onChange?: () => void;
  /** The ePay controls under `/sandbox/epay/`; true when they answered. */
  epay?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}

function ok(res: ServerResponse, message: string, data: unknown): void {
  sendJson(res, 200, { code: CODES.OK, message, data });
}

function clockData(clock: SandboxClock) {
  return { now: new Date(clock.now()).toISOString(), offset_ms: clock.offsetMs(), scheduled: clock.pending() };
}

/** The JSON object of a control's request, or undefined once a failure was sent. */
async function readObject(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
  const raw = await readJsonRequest(req, res);
  if (raw === undefined) return undefined;
  try {
    const body: unknown = JSON.parse(raw || '{}');
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  sendFailure(res, CODES.INVALID_REQUEST, 'The body must be a JSON object.');
  return undefined;
}

async function clockRoute(ctx: AdminContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET') return ok(res, 'Clock', clockData(ctx.clock));
  const body = await readObject(req, res);
  if (!body) return;
  const { advance, set } = body;
  try {
    if (typeof advance === 'string' && set === undefined) await ctx.clock.advance(parseDuration(advance));
    else if (typeof set === 'string' && advance === undefined) {
      // Date.parse gives NaN for a time no Date holds (past year 275760) as well as for a malformed one;
      // an ISO time with a six-digit year is the former, out of the clock's range.
      const at = Date.parse(set);
      const Refused = /^[+-]\d{6}-/.test(set.trim()) ? ClockRangeError : RangeError;
      if (Number.isNaN(at)) throw new Refused(`"${set}" is not a time the clock takes: send an ISO time up to ${new Date(CLOCK_LIMIT_MS).toISOString()}, e.g. {"set":"2030-01-01T00:00:00Z"}.`);
      await ctx.clock.set(at);
    } else throw new RangeError('Send {"advance":"15m"} or {"set":"2026-12-01T10:00:00Z"}.');
  } catch (error) {
    // Out of the clock's range is a value no move can take (400); the clock keeps its time either way.
    sendFailure(res, error instanceof ClockRangeError ? CODES.MALFORMED_VALUE : CODES.INVALID_REQUEST, (error as Error).message);
    return;
  }
  ctx.onChange?.();
  ctx.log(`clock -> ${new Date(ctx.clock.now()).toISOString()} (${typeof advance === 'string' ? `advanced ${advance}` : `set`})`);
  ok(res, 'Clock moved', clockData(ctx.clock));
}

async function stickyRoute(ctx: AdminContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET') return ok(res, 'Sticky scenarios', ctx.service.stickyScenarios());
  const body = await readObject(req, res);
  if (!body) return;
  const productCode = body['product_code'] ?? (ctx.productCodes.length === 1 ? ctx.productCodes[0] : undefined);
  if (typeof productCode !== 'string' || !ctx.productCodes.includes(productCode)) {
    sendFailure(res, CODES.INVALID_REQUEST, `product_code must be one of the sandbox's: ${ctx.productCodes.join(', ')}.`);
    return;
  }
  const id = body['scenario'];
  const scenario = typeof id === 'string' ? findScenario(id) : undefined;
  if (id !== null && !scenario) {
    sendFailure(res, CODES.INVALID_REQUEST, `scenario must be a catalogue ID (WPS-001 ...) or null; got ${JSON.stringify(id)}.`);
    return;
  }
  ctx.service.setStickyScenario(productCode, scenario);
  ctx.onChange?.();
  ctx.log(`scenario for ${productCode}: ${scenario ? `${scenario.id} ${scenario.name}` : 'none'}`);
  ok(res, 'Sticky scenario set', ctx.service.stickyScenarios());
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * Where a resend may go: the original callback URL's origin, or a loopback address. Anything else
 * would make the sandbox a relay that posts signed payloads to any host a caller names.
 */
export function resendTargetProblem(delivery: CallbackDelivery, target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return `"${target}" is not an absolute URL.`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `"${target}" is not an http(s) URL.`;
  if (url.username || url.password) return 'The URL must not carry credentials.';
  if (url.origin === new URL(delivery.url).origin || isLoopback(url.hostname)) return undefined;
  return `A resend goes to the callback's own origin (${new URL(delivery.url).origin}) or to a loopback address, never elsewhere; got ${url.origin}.`;
}

async function resendRoute(ctx: AdminContext, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
  if (req.method !== 'POST') return sendFailure(res, CODES.METHOD_NOT_ALLOWED, 'Use POST.', { allow: 'POST' });
  const body = await readObject(req, res);
  if (!body) return;
  const delivery = ctx.dispatcher.delivery(id);
  if (!delivery) return sendFailure(res, CODES.UNKNOWN_BOOKING, `No callback delivery "${id}" (the desk keeps the last 1000).`);
  const url = body['url'];
  if (url !== undefined) {
    const problem = typeof url === 'string' ? resendTargetProblem(delivery, url) : 'url must be a string.';
    if (problem) return sendFailure(res, CODES.INVALID_REQUEST, problem);
  }
  const resent = ctx.dispatcher.resend(id, url as string | undefined)!;
  ctx.log(`callback ${delivery.booking_id}: ${id} resent as ${resent}${url ? ` to ${String(url)}` : ''}`);
  ok(res, 'Callback resent', { id: resent, resend_of: id });
}

/** Answers a `/sandbox/...` control; false when the path is none of them. */
export function createAdminRoutes(ctx: AdminContext) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path.startsWith('/sandbox/epay/') && ctx.epay) return ctx.epay(req, res, path);
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (path === '/sandbox/clock') await clockRoute(ctx, req, res);
    else if (path === '/sandbox/scenario') await stickyRoute(ctx, req, res);
    else if (path === '/sandbox/scenarios') ok(res, 'Scenarios', SCENARIOS.map((s) => ({ ...s, magic_amount: magicAmountOf(s) })));
    else if (path === '/sandbox/callbacks') {
      const state = query.get('state') as CallbackDelivery['state'] | null;
      const bookingId = query.get('booking_id');
      ok(res, 'Callback deliveries', ctx.dispatcher.deliveries({ ...(state ? { state } : {}), ...(bookingId ? { booking_id: bookingId } : {}) }));
    } else if (path === '/sandbox/desk') sendPage(res, 200, deskPage(ctx.dispatcher.deliveries()));
    else {
      const resend = /^\/sandbox\/callbacks\/([^/]+)\/resend$/.exec(path);
      const booking = /^\/sandbox\/bookings\/([^/]+)$/.exec(path);
      if (resend) await resendRoute(ctx, req, res, decodeURIComponent(resend[1]!));
      else if (booking) {
        const found = ctx.service.getBooking(decodeURIComponent(booking[1]!));
        if (found) ok(res, 'Booking', found);
        else sendFailure(res, CODES.UNKNOWN_BOOKING, `No booking "${booking[1]}".`);
      } else return false;
    }
    return true;
  };
}
