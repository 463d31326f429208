/**
 * The sandbox's two HTTP front ends on `node:http`: the service origin ({base_url}: each provider
 * emulation's routes, then the `/sandbox/` controls) and the links origin ({links_url}: the wallet
 * page the intent service's deeplinks open). Transport rules live here (logging, seeded faults,
 * content type, body size); each provider's routes live in its folder (esewa-intent/routes.ts,
 * epay/routes.ts, khalti/routes.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CODES, HTTP_STATUS_OF_CODE, type ResponseCode } from '../protocol/contract.js';
import { messagePage } from './esewa-intent/pages.js';
import { INTENT_API_PREFIX } from './esewa-intent/request.js';
import { bufferBody, decideFault, DEFAULT_HOLD_MS, FAULTS, pause, type Chaos, type ChaosKeyOf, type FaultDecision } from './chaos.js';
import { EPAY_API_PREFIX, EPAY_ERRORS } from './epay/rules.js';

/** Largest request body read (64 KiB); larger bodies get IP-413. */
export const MAX_BODY_BYTES = 64 * 1024;

// Past this the connection is dropped instead of drained: nobody legitimately sends it.
const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** What the HTTP layer needs from the sandbox. */
export interface HttpContext {
  log: (line: string) => void;
  /** Seeded faults on the API and the pages (never on `/sandbox/` controls). */
  chaos?: Chaos;
  /** The provider emulations on the service origin, asked in turn; the first that answers wins. */
  providers: readonly ProviderRoutes[];
  /** The links origin's routes (the intent service's wallet page); a page of 404 where they answer nothing. */
  links: ProviderRoutes;
  /** The `/sandbox/` controls (clock, scenarios, callback desk); true when it answered. */
  admin?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;
}

/** A provider emulation's routes; `chaosKey` names what a request of theirs is about, for chaos. */
export type ProviderRoutes = ((req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>) & { chaosKey?: ChaosKeyOf };

/** A request body past {@link MAX_BODY_BYTES}. */
export class BodyTooLarge extends Error {}

/** A path segment decoded; a malformed escape is kept as it is (it then matches no booking). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A request's body as text; past {@link MAX_BODY_BYTES}, {@link BodyTooLarge} once the rest is drained. */
export async function readBody(req: IncomingMessage): Promise<string> {
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

/** A request's media type and charset, lower-cased. */
export function mediaType(req: IncomingMessage): { type: string; charset?: string } {
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
    if (path.startsWith(INTENT_API_PREFIX)) sendFailure(res, CODES.INTERNAL, `Unexpected error in the sandbox (${decision.label}).`);
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

/** Request handler of the service origin: the providers' routes, then the `/sandbox/` controls. */
export function createServiceHandler(ctx: HttpContext) {
  const keyOf: ChaosKeyOf = (req, path, body) => {
    for (const routes of ctx.providers) {
      const key = routes.chaosKey?.(req, path, body);
      if (key) return key;
    }
    return undefined;
  };
  return logged(ctx, 'service', keyOf, async (req, res, path) => {
    for (const routes of ctx.providers) if (await routes(req, res, path)) return;
    if (path.startsWith('/sandbox/') && ctx.admin && (await ctx.admin(req, res, path))) return;
    sendFailure(res, CODES.NOT_FOUND, `No endpoint at ${path}.`);
  });
}

/** Request handler of the links origin (the wallet page). */
export function createLinksHandler(ctx: HttpContext) {
  return logged(ctx, 'links', (req, path, body) => ctx.links.chaosKey?.(req, path, body), async (req, res, path) => {
    if (await ctx.links(req, res, path)) return;
    sendPage(res, 404, messagePage('Not found', `Nothing at ${path}.`));
  });
}
