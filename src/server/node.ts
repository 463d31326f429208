/**
 * Adapts the fetch-style payment handler to `node:http` and Connect-style frameworks (Express and
 * the like). Node-only, so it lives apart from the core modules, which run in edge runtimes too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { CODES, HTTP_STATUS_OF_CODE, type ResponseCode } from '../protocol/contract.js';
import { JSON_HEADERS } from './http.js';

/** A `node:http` request listener that also works as Connect/Express middleware. */
export type NodeListener = (
  request: IncomingMessage & { body?: unknown },
  response: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Wraps a payment handler as a `node:http` listener / middleware:
 * `http.createServer(toNodeListener(handler))` or `app.use('/pay', toNodeListener(handler))`.
 *
 * Mount it before any body parser: callbacks are verified on the raw body text. If a parser already
 * read the body as a string or Buffer, that text is used; a parsed object is refused, since the digits
 * that were signed may be gone.
 */
export function toNodeListener(handler: (request: Request) => Promise<Response>): NodeListener {
  return (request, response, next) => {
    void (async () => {
      if (refuseMalformedRequest(request, response)) return;
      const answer = await handler(toRequest(request));
      // Answered before its body was read (a body too large, a wrong content type): the rest of that
      // body is still on its way, so the connection cannot carry another request. Closing it says so,
      // instead of leaving the client to find out after a wait.
      if (!request.readableEnded && request.body === undefined) response.setHeader('connection', 'close');
      response.statusCode = answer.status;
      answer.headers.forEach((value, name) => response.setHeader(name, value));
      response.end(Buffer.from(await answer.arrayBuffer()));
    })().catch((error: unknown) => {
      if (next) {
        next(error);
        return;
      }
      if (!response.headersSent) {
        response.writeHead(HTTP_STATUS_OF_CODE[CODES.INTERNAL], JSON_HEADERS);
      }
      response.end(JSON.stringify({ code: CODES.INTERNAL, error_message: 'The server could not handle this request.' }));
    });
  };
}

/**
 * Answers on `response` a node request that never becomes a `Request`, as {@link toNodeListener} does,
 * and says whether it did: a Host header or request target that is no URL (400, `IP-420`), or a method
 * a `Request` cannot carry (TRACE, TRACK, CONNECT: 405, `IP-405`, `allow` as its `Allow` header). They
 * are the client's mistakes, not the server's fault. Call it first in a node server that hands its
 * other requests to something else (a Next.js custom server), which would drop them unanswered.
 */
export function refuseMalformedRequest(request: IncomingMessage, response: ServerResponse, allow = 'POST'): boolean {
  const refusal = refusalOf(request, allow);
  if (!refusal) return false;
  response.writeHead(HTTP_STATUS_OF_CODE[refusal.code], { ...JSON_HEADERS, ...refusal.headers });
  response.end(JSON.stringify({ code: refusal.code, error_message: refusal.message }));
  return true;
}

// Methods the Fetch standard forbids in a Request, and any that is not an HTTP token: its constructor throws for them.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function refusalOf(request: IncomingMessage, allow: string): { code: ResponseCode; message: string; headers?: Record<string, string> } | undefined {
  try {
    urlOf(request);
  } catch {
    return { code: CODES.MALFORMED_HOST, message: 'The Host header or the request target is malformed.' };
  }
  const method = request.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method.toUpperCase()) || !TOKEN.test(method)) return { code: CODES.METHOD_NOT_ALLOWED, message: `Use ${allow}; got ${method}.`, headers: { allow } };
  return undefined;
}

/** Only the path matters for routing; the host is a placeholder when the client sent none. */
function urlOf(request: IncomingMessage): URL {
  return new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
}

/** A request {@link refuseMalformedRequest} let through, as a `Request`. */
function toRequest(request: IncomingMessage & { body?: unknown }): Request {
  const url = urlOf(request);
  const method = request.method ?? 'GET';
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    const parsed = request.body;
    if (typeof parsed === 'string' || Buffer.isBuffer(parsed)) {
      init.body = typeof parsed === 'string' ? parsed : new Uint8Array(parsed);
      headers.delete('content-length');
    } else if (parsed !== undefined && request.readableEnded) {
      throw new Error(
        'The request body was already parsed into an object; mount the payment handler before any body parser.',
      );
    } else {
      init.body = Readable.toWeb(request) as ReadableStream<Uint8Array>;
      init.duplex = 'half';
    }
  }
  return new Request(url, init);
}
