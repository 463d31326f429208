/**
 * The shop's production server: Next.js behind `node:http`, with the kit's refusal of malformed
 * requests first. `next start` drops the connection of a TRACE, and of a malformed Host outside a route
 * handler, unanswered; here the kit answers them 405 and 400 in JSON, as its node adapter does.
 *
 * `node server.mjs [--port 3000] [--hostname 127.0.0.1]` after `next build` (the flags of `next start`).
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { refuseMalformedRequest } from 'wallet-pay-button/server/node';

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

const server = createServer((req, res) => {
  if (!refuseMalformedRequest(req, res, 'GET, HEAD, POST')) void handle(req, res);
});
server.listen(port, hostname, () => console.log(`shop listening on http://${hostname ?? 'localhost'}:${port}`));
