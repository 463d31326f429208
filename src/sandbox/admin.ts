/**
 * The sandbox's own controls under `{base_url}/sandbox/`: the clock, then each provider emulation's
 * (the intent service's scenarios, bookings and callback desk; ePay's transactions under
 * `/sandbox/epay/`). Unauthenticated, as sandbox-only controls; chaos never touches them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES } from '../protocol/contract.js';
import { CLOCK_LIMIT_MS, ClockRangeError, parseDuration, type SandboxClock } from './clock.js';
import { readJsonRequest, sendFailure, sendJson } from './http.js';

/** A provider's controls: true when it answered the path. */
export type AdminRoutes = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/** What the controls reach. */
export interface AdminContext {
  clock: SandboxClock;
  log: (line: string) => void;
  /** Called after the clock moved (the state file is written). */
  onChange?: () => void;
  /** Each provider emulation's controls, asked in turn after the clock's. */
  providers: readonly AdminRoutes[];
}

/** Answers a control's success: `{ code, message, data }`, as every control does. */
export function ok(res: ServerResponse, message: string, data: unknown): void {
  sendJson(res, 200, { code: CODES.OK, message, data });
}

function clockData(clock: SandboxClock) {
  return { now: new Date(clock.now()).toISOString(), offset_ms: clock.offsetMs(), scheduled: clock.pending() };
}

/** The JSON object of a control's request, or undefined once a failure was sent. */
export async function readObject(req: IncomingMessage, res: ServerResponse): Promise<Record<string, unknown> | undefined> {
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

/** Answers a `/sandbox/...` control; false when the path is none of them. */
export function createAdminRoutes(ctx: AdminContext): AdminRoutes {
  return async (req, res, path) => {
    if (path === '/sandbox/clock') {
      await clockRoute(ctx, req, res);
      return true;
    }
    for (const routes of ctx.providers) if (await routes(req, res, path)) return true;
    return false;
  };
}
