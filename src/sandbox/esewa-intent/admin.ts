/**
 * The intent service's controls under `{base_url}/sandbox/`: the scenarios (the catalogue and the
 * sticky choice per product code), a booking's record, and the callback desk (its JSON, its page,
 * resending). Unauthenticated, as every `/sandbox/` control (the clock's are the sandbox's
 * `admin.ts`); chaos never touches them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES } from '../../protocol/contract.js';
import type { CallbackDispatcher, CallbackDelivery } from './callbacks.js';
import { ok, readObject } from '../admin.js';
import { sendFailure, sendPage } from '../http.js';
import { deskPage } from './pages.js';
import { findScenario, magicAmountOf, SCENARIOS } from './scenarios.js';
import type { SandboxService } from './service.js';

/** What the controls reach. */
export interface IntentAdminContext {
  service: SandboxService;
  dispatcher: CallbackDispatcher;
  productCodes: readonly string[];
  log: (line: string) => void;
  /** Called after a sticky scenario changed (the state file is written). */
  onChange?: () => void;
}

async function stickyRoute(ctx: IntentAdminContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
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

async function resendRoute(ctx: IntentAdminContext, req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
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

/** Answers one of the intent service's `/sandbox/...` controls; false when the path is none of them. */
export function createIntentAdminRoutes(ctx: IntentAdminContext) {
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const query = new URL(req.url ?? '/', 'http://sandbox.invalid').searchParams;
    if (path === '/sandbox/scenario') await stickyRoute(ctx, req, res);
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
