// A scripted merchant proxy for the browser tests, mounted on web-test-runner's own server (loopback).
//
//   POST /test-proxy/<scenario>/__script    { book?: Step[], status?: Step[], cancel?: Step[] }
//        replaces the scenario's script and forgets what it received.
//   GET  /test-proxy/<scenario>/__received  { book: Received[], status: Received[], cancel: Received[] }
//   POST /test-proxy/<scenario>/book|status|cancel|order   answered by the next step of that operation
//        (an unscripted /order with a 404, as a server without that route);
//        the last step repeats.
//   GET  /test-proxy/<scenario>/chunk.js   (HEAD too) answered by the next `chunk` step: a module the
//        element's chunk loader fetches, dropped or missing as the script says.
//
// Step: { status = 200, body (sent as JSON), raw (sent as text/html instead), location (a Location
// header, for redirects), delay (ms), destroy (close the socket without answering), type (the
// content type of `raw`, text/html when absent) }.
// Received: { body, idempotencyKey, attempt (the Wallet-Pay-Attempt header), contentType }.
// A script with `keepReceived: true` keeps what was received so far (to swap answers mid-test).
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';

const OPERATIONS = ['book', 'status', 'cancel', 'order', 'chunk'];
const PATH = /^\/test-proxy\/([A-Za-z0-9_-]{1,80})\/(__script|__received|book|status|cancel|order|chunk\.js)$/;

/** @type {Map<string, { script: Record<string, object[]>, cursor: Record<string, number>, received: Record<string, object[]> }>} */
const scenarios = new Map();

function scenario(id) {
  let entry = scenarios.get(id);
  if (!entry) {
    entry = { script: {}, cursor: {}, received: { book: [], status: [], cancel: [], order: [], chunk: [] } };
    scenarios.set(id, entry);
  }
  return entry;
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function json(ctx, status, body) {
  ctx.status = status;
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(body);
}

/** Koa middleware for web-test-runner's `middleware` option. */
export async function testProxyMiddleware(ctx, next) {
  const match = PATH.exec(ctx.path);
  if (!match) return next();
  const [, id, path] = match;
  const action = path === 'chunk.js' ? 'chunk' : path;
  const entry = scenario(id);

  if (action === '__received') return json(ctx, 200, entry.received);
  if (ctx.method !== 'POST' && !(action === 'chunk' && (ctx.method === 'GET' || ctx.method === 'HEAD'))) return json(ctx, 405, { code: 'IP-405', error_message: 'POST only' });
  const text = await readBody(ctx.req);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = { unparsable: text };
  }

  if (action === '__script') {
    entry.script = {};
    entry.cursor = {};
    if (body.keepReceived !== true) entry.received = { book: [], status: [], cancel: [], order: [], chunk: [] };
    for (const op of OPERATIONS) if (Array.isArray(body[op])) entry.script[op] = body[op];
    return json(ctx, 200, { ok: true });
  }

  entry.received[action].push({
    method: ctx.method,
    body,
    idempotencyKey: ctx.get('Idempotency-Key') || null,
    attempt: ctx.get('Wallet-Pay-Attempt') || null,
    contentType: ctx.get('Content-Type') || null,
  });
  const steps = entry.script[action];
  // Unscripted, `/order` is answered as by a server without the route.
  if (action === 'order' && !steps?.length) return json(ctx, 404, { code: 'IP-404', error_message: 'No such endpoint' });
  if (!steps || steps.length === 0) {
    return json(ctx, 500, { code: 'IP-500', error_message: `no scripted answer for ${action}` });
  }
  const index = Math.min(entry.cursor[action] ?? 0, steps.length - 1);
  entry.cursor[action] = index + 1;
  const step = steps[index];
  if (step.delay) await sleep(step.delay);
  if (step.destroy) {
    // Koa would log the unanswered request as a 404; it is a deliberate dropped connection.
    ctx.status = 499;
    ctx.respond = false;
    ctx.req.socket.destroy();
    return;
  }
  if (typeof step.location === 'string') ctx.set('Location', step.location);
  if (typeof step.raw === 'string') {
    ctx.status = step.status ?? 200;
    ctx.type = step.type ?? 'text/html';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = step.raw;
    return;
  }
  return json(ctx, step.status ?? 200, step.body ?? {});
}
