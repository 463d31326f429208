// A scripted merchant proxy for the browser tests, mounted on web-test-runner's own server (loopback).
//
//   POST /test-proxy/<scenario>/__script    { book?: Step[], status?: Step[], cancel?: Step[] }
//        replaces the scenario's script and forgets what it received.
//   POST /test-proxy/<scenario>/__release   lets every answer held by a `hold` step go, now and after.
//   GET  /test-proxy/<scenario>/__received  { book: Received[], status: Received[], cancel: Received[] }
//   POST /test-proxy/<scenario>/book|status|cancel|order   answered by the next step of that operation
//        (an unscripted /order with a 404, as a server without that route);
//        the last step repeats.
//   GET  /test-proxy/<scenario>/chunk.js   (HEAD too) answered by the next `chunk` step: a module the
//        element's chunk loader fetches, dropped or missing as the script says.
//
// Step: { status = 200, body (sent as JSON), raw (sent as text/html instead), location (a Location
// header, for redirects), delay (ms), hold (answered once the test releases the scenario, or after
// HOLD_LIMIT_MS with a 504, so a test that forgets fails instead of hanging), destroy (close the
// socket without answering), type (the content type of `raw`, text/html when absent) }.
// Received: { body, idempotencyKey, attempt (the Wallet-Pay-Attempt header), contentType }.
// A script with `keepReceived: true` keeps what was received so far (to swap answers mid-test).
import { Buffer } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';

const OPERATIONS = ['book', 'status', 'cancel', 'order', 'chunk'];
const PATH = /^\/test-proxy\/([A-Za-z0-9_-]{1,80})\/(__script|__received|__release|book|status|cancel|order|chunk\.js)$/;
/** Longest a `hold` step waits for its release. */
const HOLD_LIMIT_MS = 10_000;

/** @type {Map<string, { script: Record<string, object[]>, cursor: Record<string, number>, received: Record<string, object[]>, released: Promise<void>, release: () => void }>} */
const scenarios = new Map();

function scenario(id) {
  let entry = scenarios.get(id);
  if (!entry) {
    entry = { script: {}, cursor: {}, received: { book: [], status: [], cancel: [], order: [], chunk: [] }, ...holds() };
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

/** A scenario's release: `released` resolves once the test lets held answers go. */
function holds() {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  return { released, release };
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

  if (action === '__release') {
    entry.release();
    return json(ctx, 200, { ok: true });
  }
  if (action === '__script') {
    entry.script = {};
    entry.cursor = {};
    Object.assign(entry, holds());
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
  if (step.hold) {
    // The limit's timer goes with the release, so a released answer leaves nothing running.
    const limit = new globalThis.AbortController();
    const held = await Promise.race([entry.released.then(() => true), sleep(HOLD_LIMIT_MS, false, { signal: limit.signal }).catch(() => false)]);
    limit.abort();
    if (!held) return json(ctx, 504, { code: 'IP-504', error_message: `the test never released this held ${action} answer within ${HOLD_LIMIT_MS} ms` });
  }
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
