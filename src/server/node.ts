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
      let converted: Request;
      try {
        converted = toRequest(request);
      } catch (error) {
        if (!(error instanceof MalformedRequest)) throw error;
        // A client's broken Host header, or a method a Request cannot carry (TRACE, TRACK, CONNECT), is the
        // client's request (4xx), not the server's fault (500).
        response.writeHead(HTTP_STATUS_OF_CODE[error.code], { ...JSON_HEADERS, ...error.headers });
        response.end(JSON.stringify({ code: error.code, error_message: error.message }));
        return;
      }
      const answer = await handler(converted);
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

/** A request that never becomes a `Request`: answered by the adapter with its own code. */
class MalformedRequest extends Error {
  constructor(
    readonly code: ResponseCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

// Methods the Fetch standard forbids in a Request: its constructor throws for them.
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

function toRequest(request: IncomingMessage & { body?: unknown }): Request {
  // Only the path matters for routing; the host is a placeholder when the client sent none.
  let url: URL;
  try {
    url = new URL(request.url ?? '/', `http://${request.headers.host ?? 'localhost'}`);
  } catch {
    throw new MalformedRequest(CODES.MALFORMED_HOST, 'The Host header or the request target is malformed.');
  }
  const method = request.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    throw new MalformedRequest(CODES.METHOD_NOT_ALLOWED, `Use POST; got ${method}.`, { allow: 'POST' });
  }
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
  try {
    return new Request(url, init);
  } catch (error) {
    // Any other method the Request constructor refuses (not a token): the same answer.
    if (method !== 'POST') throw new MalformedRequest(CODES.METHOD_NOT_ALLOWED, `Use POST; got ${method}.`, { allow: 'POST' });
    throw error;
  }
}
