/**
 * The transport clauses, each run against a small proxy on loopback that keeps the rule and against
 * the same proxy breaking it: the clause passes on the first and fails, naming the fault, on the second.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import * as clauses from '../../../src/check/clauses-transport.js';
import { ClauseFailure, Steps } from '../../../src/check/steps.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';

/** The one rule the proxy breaks, if any. */
type Fault = 'none' | 'no-allow' | 'accepts-huge' | 'accepts-text' | 'failure-as-200' | 'bare-404' | 'redirects' | 'html' | 'cached' | 'sniffable';
let fault: Fault = 'none';

function answer(res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': fault === 'html' ? 'text/html' : 'application/json; charset=utf-8',
    ...(fault === 'cached' ? {} : { 'cache-control': 'no-store' }),
    ...(fault === 'sniffable' ? {} : { 'x-content-type-options': 'nosniff' }),
    ...headers,
  });
  res.end(JSON.stringify(json));
}

let server: Server;
let endpoint: string;
let sandbox: Sandbox;
before(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const route = req.url!.replace(/^\/api\/pay\//, '');
      if (req.method !== 'POST') return answer(res, 405, { code: 'IP-405', error_message: 'POST only' }, fault === 'no-allow' ? {} : { allow: 'POST' });
      if (body.length > 64 * 1024 && fault !== 'accepts-huge') return answer(res, 413, { code: 'IP-413', error_message: 'too large' });
      if (!(req.headers['content-type'] ?? '').startsWith('application/json') && fault !== 'accepts-text') return answer(res, 415, { code: 'IP-415', error_message: 'JSON only' });
      if (!['book', 'status', 'cancel'].includes(route)) {
        if (fault === 'redirects') return answer(res, 302, {}, { location: '/' });
        if (fault === 'bare-404') return answer(res, 404, { message: 'not found' });
        return answer(res, 404, { code: 'IP-444', error_message: 'no such endpoint' });
      }
      if (fault === 'failure-as-200') return answer(res, 200, { code: 'IP-422', error_message: 'bad body' });
      return answer(res, 422, { code: 'IP-422', error_message: 'bad body' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/pay`;
  sandbox = await startSandbox({ accessKey: 'transport-key' });
});
after(async () => {
  await sandbox?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  fault = 'none';
});

function steps(): Steps {
  const s = new Steps({ endpoint, sandboxPort: 1, orderPrefix: 'CHK-', amount: 1000 });
  s.sandbox = sandbox;
  return s;
}

/** Runs `clause` on a fresh run (after `warm`, which fills the log); answers its note or its failure. */
async function verdict(clause: (s: Steps) => Promise<unknown>, warm?: (s: Steps) => Promise<unknown>): Promise<{ ok: true; note: unknown } | { ok: false; message: string }> {
  const s = steps();
  try {
    await warm?.(s);
    return { ok: true, note: await clause(s) };
  } catch (error) {
    if (!(error instanceof ClauseFailure)) throw error;
    return { ok: false, message: error.message };
  }
}

const cases: Array<{ clause: keyof typeof clauses; breaks: Fault; says: RegExp; warm?: (s: Steps) => Promise<unknown> }> = [
  { clause: 'methodNotAllowed', breaks: 'no-allow', says: /^the 405 must carry Allow: POST; got Allow: \(none\); sent: GET \/api\/pay\/book/ },
  { clause: 'payloadTooLarge', breaks: 'accepts-huge', says: /^a book body of 1 MiB: expected 413 IP-413; sent: POST \/api\/pay\/book .*got: 422/ },
  { clause: 'unsupportedMediaType', breaks: 'accepts-text', says: /^a book body sent as text\/plain: expected 415 IP-415;/ },
  { clause: 'failureNot2xx', breaks: 'failure-as-200', says: /^a failure envelope came with 200; sent: POST \/api\/pay\/book/ },
  { clause: 'failureNot2xx', breaks: 'bare-404', says: /^a failure must be a failure envelope \{ code, error_message \}; sent: POST \/api\/pay\/no-such-route-/ },
  { clause: 'noRedirect', breaks: 'redirects', says: /^a redirect \(to \/\): the element never follows one;/ },
  { clause: 'contentTypeJson', breaks: 'html', says: /^Content-Type is not application\/json; charset=utf-8 on 1 of 1 answers, first \(content-type: text\/html/, warm: (s) => s.book('app', s.order(), s.key()) },
  { clause: 'noStore', breaks: 'cached', says: /^Cache-Control lacks no-store on 1 of 1 answers, first \(.*cache-control: \(none\)/, warm: (s) => s.book('app', s.order(), s.key()) },
  { clause: 'nosniff', breaks: 'sniffable', says: /^X-Content-Type-Options is not nosniff on 1 of 1 answers/, warm: (s) => s.book('app', s.order(), s.key()) },
];

for (const { clause, breaks, says, warm } of cases) {
  test(`${clause} passes on a proxy that keeps the rule and fails on one that breaks it (${breaks})`, async () => {
    const kept = await verdict(clauses[clause] as (s: Steps) => Promise<unknown>, warm);
    assert.ok(kept.ok, `kept: ${kept.ok ? '' : kept.message}`);
    fault = breaks;
    const broken = await verdict(clauses[clause] as (s: Steps) => Promise<unknown>, warm);
    assert.ok(!broken.ok, 'the broken proxy passed');
    assert.match(broken.message, says);
  });
}

test('the header clauses count the answers they judged, and fail when there is none', async () => {
  const judged = await verdict(clauses.noStore, async (s) => {
    await s.book('app', s.order(), s.key());
    await s.http.send(s.url('status'), { body: {} });
  });
  assert.deepEqual(judged, { ok: true, note: '2 answers' });
  const none = await verdict(clauses.nosniff);
  assert.deepEqual(none, { ok: false, message: 'the proxy gave no answer to judge' });
});
