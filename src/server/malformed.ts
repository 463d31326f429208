/**
 * What a Fetch-style server (Bun, Deno, Workers, Next.js) answers before any routing, as the `node:http`
 * adapter does: a Host or request target that is no URL is the client's mistake (400, `IP-420`), and
 * TRACE, TRACK and CONNECT are methods nothing here serves (405, `IP-405`). Without it a runtime's own
 * error page (with the error and a file path, in development) answers them.
 */
import { CODES } from '../protocol/contract.js';
import { failure, Refusal } from './http.js';

const NOT_SERVED = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The answer to a request no route should see, or `undefined` for any other: call it first in a
 * server's `fetch` (the payment handler calls it itself). `allow` is the `Allow` header of a 405.
 */
export function refuseMalformed(request: Request, allow = 'POST'): Response | undefined {
  const method = request.method.toUpperCase();
  if (NOT_SERVED.has(method)) return failure(new Refusal(CODES.METHOD_NOT_ALLOWED, `Use ${allow}; got ${method}.`, { allow }));
  try {
    new URL(request.url);
    const host = request.headers.get('host');
    if (host !== null && new URL(`http://${host}/`).host === '') throw new TypeError('empty host');
  } catch {
    return failure(new Refusal(CODES.MALFORMED_HOST, 'The Host header or the request target is malformed.'));
  }
  return undefined;
}
