/**
 * The shop's production server: Next.js behind `node:http`, with the kit's refusal of malformed
 * requests first. `next start` drops the connection of a TRACE, and of a malformed Host outside a route
 * handler, unanswered; here they are answered 405 and 400 in JSON, as the kit's node adapter answers.
 *
 * `node server.mjs [--port 3000] [--hostname 127.0.0.1]` after `next build` (the flags of `next start`).
 */
/* global Headers */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { refuseMalformed } from 'wallet-pay-button/server';

// Set before Next loads, as `next start` does: React picks its production build by it, and the kit
// warns of the memory store by it.
process.env.NODE_ENV ||= 'production';
const { default: next } = await import('next');

const { values } = parseArgs({ options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname;

const app = next({ dev: false, dir: fileURLToPath(new URL('.', import.meta.url)), hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

/**
 * The kit's answer to a request no page or route should see, or `undefined`. `refuseMalformed` reads a
 * request's method, URL and Host only; a node request becomes no `Request` when it is a TRACE or has a
 * broken Host, so it gets those three as they came. The URL is resolved as the node adapter resolves
 * it, and is left empty (no URL: refused) where that fails.
 */
function refusal(req) {
  const host = req.headers.host;
  let url = '';
  try {
    url = new URL(req.url ?? '/', `http://${host ?? 'localhost'}`).href;
  } catch {
    // Refused below as a malformed Host or target.
  }
  return refuseMalformed({ method: req.method ?? 'GET', url, headers: new Headers(host === undefined ? [] : [['host', host]]) }, 'GET, HEAD, POST');
}

const server = createServer(async (req, res) => {
  const refused = refusal(req);
  if (!refused) return handle(req, res);
  res.writeHead(refused.status, Object.fromEntries(refused.headers)).end(await refused.text());
});
server.listen(port, hostname, () => console.log(`shop listening on http://${hostname ?? 'localhost'}:${port}`));
