/** The checker's clauses on transport: methods, sizes, content types, envelopes, redirects and headers. */
import { IDEMPOTENCY_HEADER } from '../protocol/contract.js';
import { describe, type Exchange } from './exchange.js';
import { fail, type Steps } from './steps.js';

/** `method-not-allowed`: other methods are 405 with Allow: POST. */
export async function methodNotAllowed(s: Steps): Promise<void> {
  for (const [method, route] of [['GET', 'book'], ['GET', 'status'], ['PUT', 'cancel']] as const) {
    const exchange = await s.http.send(s.url(route), { method, ...(method === 'PUT' ? { body: {} } : {}) });
    s.expectCode(exchange, 405, 'IP-405', `${method} /${route}`);
    const allow = (exchange.answerHeaders.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
    if (!allow.includes('POST')) fail(`the 405 must carry Allow: POST; got Allow: ${exchange.answerHeaders.get('allow') ?? '(none)'}; ${describe(exchange)}`);
  }
}

/** `payload-too-large`: a body of 1 MiB is IP-413 and books nothing. */
export async function payloadTooLarge(s: Steps): Promise<void> {
  const before = s.bookingCount();
  const exchange = await s.book('app', s.order({ note: 'x'.repeat(1024 * 1024) }), s.key());
  s.expectCode(exchange, 413, 'IP-413', 'a book body of 1 MiB');
  if (s.bookingCount() !== before) fail('the body of 1 MiB was booked at the service');
}

/** `unsupported-media-type`: bodies that are not JSON are IP-415. */
export async function unsupportedMediaType(s: Steps): Promise<void> {
  for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
    const exchange = await s.http.send(s.url('book'), {
      headers: { [IDEMPOTENCY_HEADER]: s.key() },
      contentType: type,
      body: { channel: 'app', order: s.order() },
    });
    s.expectCode(exchange, 415, 'IP-415', `a book body sent as ${type}`);
  }
}

/** `failure-not-2xx`: failures are non-2xx envelopes, 2xx answers success envelopes. */
export async function failureNot2xx(s: Steps): Promise<void> {
  const probes = [
    await s.http.send(s.url('book'), { headers: { [IDEMPOTENCY_HEADER]: s.key() }, body: '{"channel":"app","order":' }),
    await s.http.send(s.url('status'), { body: {} }),
    await s.http.send(s.url('cancel'), { body: { booking_id: 1, correlation_id: null } }),
    await s.http.send(`${s.endpoint}/no-such-route-${s.runId}`, { body: {} }),
  ];
  for (const probe of probes) if (probe.error !== undefined) fail(describe(probe));
  // The probes are judged with every answer so far, below.
  for (const exchange of proxyAnswers(s)) {
    const json = exchange.json as { code?: unknown; error_message?: unknown; data?: unknown } | undefined;
    const ok2xx = exchange.status >= 200 && exchange.status <= 299;
    const isCallback = !/\/(book|status|cancel)$/.test(new URL(exchange.url).pathname);
    if (ok2xx && json && typeof json === 'object' && 'error_message' in json) fail(`a failure envelope came with ${exchange.status}; ${describe(exchange)}`);
    if (ok2xx && !isCallback && !(json && (json.code === 'IP-201' || json.code === 'IP-210') && typeof json.data === 'object')) {
      fail(`a 2xx must be a success envelope { code: "IP-201" | "IP-210", message, data }; ${describe(exchange)}`);
    }
    if (!ok2xx && exchange.status >= 400 && !(json && typeof json.code === 'string' && typeof json.error_message === 'string')) {
      fail(`a failure must be a failure envelope { code, error_message }; ${describe(exchange)}`);
    }
  }
}

/** `no-redirect`: no answer so far, nor one to an unknown address, is a redirect. */
export async function noRedirect(s: Steps): Promise<void> {
  const probe = await s.http.send(`${s.endpoint}/no-such-route-${s.runId}`, { body: {} });
  if (probe.error !== undefined) fail(describe(probe));
  for (const exchange of s.http.log) {
    if (exchange.status >= 300 && exchange.status <= 399) {
      fail(`a redirect (to ${exchange.answerHeaders.get('location') ?? 'nowhere'}): the element never follows one; ${describe(exchange)}`);
    }
  }
}

/** Answers to judge by their headers: answered, and not redirects (the redirect clause judges those). */
function proxyAnswers(s: Steps): Exchange[] {
  return s.http.log.filter((e) => e.error === undefined && (e.status < 300 || e.status > 399));
}

/** Fails when any answer so far lacks what `ok` asks. */
async function everyAnswer(s: Steps, ok: (exchange: Exchange) => boolean, problem: string): Promise<string> {
  const answers = proxyAnswers(s);
  if (answers.length === 0) fail('the proxy gave no answer to judge');
  const bad = answers.filter((e) => !ok(e));
  if (bad.length > 0) {
    const headerLine = ['content-type', 'cache-control', 'x-content-type-options'].map((h) => `${h}: ${bad[0]!.answerHeaders.get(h) ?? '(none)'}`).join(', ');
    fail(`${problem} on ${bad.length} of ${answers.length} answers, first (${headerLine}); ${describe(bad[0]!)}`);
  }
  return `${answers.length} answers`;
}


/** Every answer is JSON in UTF-8. */
export function contentTypeJson(s: Steps): Promise<string> {
  return everyAnswer(s, (e) => {
    const [type = '', ...params] = (e.answerHeaders.get('content-type') ?? '').toLowerCase().split(';').map((p) => p.trim());
    return type === 'application/json' && params.some((p) => p.replace(/\s/g, '').replace(/"/g, '') === 'charset=utf-8');
  }, 'Content-Type is not application/json; charset=utf-8');
}

/** Every answer carries payment state: never cached. */
export function noStore(s: Steps): Promise<string> {
  return everyAnswer(s, (e) => (e.answerHeaders.get('cache-control') ?? '').toLowerCase().split(',').some((p) => p.trim() === 'no-store'), 'Cache-Control lacks no-store');
}

/** Every answer is read as what it says it is. */
export function nosniff(s: Steps): Promise<string> {
  return everyAnswer(s, (e) => (e.answerHeaders.get('x-content-type-options') ?? '').trim().toLowerCase() === 'nosniff', 'X-Content-Type-Options is not nosniff');
}
