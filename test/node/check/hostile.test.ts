/**
 * The checker harms no one and cannot hang: hostile endpoints on loopback (an endless body, a slow
 * drip, a redirect to another host, a callback URL on a third party's origin, answers that try to
 * rewrite the terminal) make it fail in seconds with bounded reads, send nothing to anyone else, and
 * print nothing raw.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { runCheck, type CheckReport } from '../../../src/check/index.js';
import { formatResult } from '../../../src/check/command.js';
import { productionWarning } from '../../../src/check/run.js';
import { clip, MAX_ANSWER_BYTES } from '../../../src/check/exchange.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { AMOUNT, checkProxy, freePort, kitUnderTest, PREFIX, serve } from './support.js';
import { within as limited } from '../../support/within.js';

/** `within(ms, what, work)`, the order these tests read best in. */
const within = <T>(ms: number, what: string, work: Promise<T>): Promise<T> => limited(work, ms, what);

/** Writes 64 KiB chunks for as long as the client reads, counting what went out. */
function endless(res: ServerResponse, sent: { bytes: number }): void {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  const pump = (): void => {
    while (!res.destroyed) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

async function checkHostile(listener: Parameters<typeof serve>[0], requestTimeoutMs?: number): Promise<CheckReport> {
  const endpoint = await serve(listener);
  try {
    const options = { endpoint: `${endpoint.url}/pay`, sandboxPort: await freePort(), orderPrefix: PREFIX, amount: AMOUNT, reconcile: false as const, ...(requestTimeoutMs ? { requestTimeoutMs } : {}) };
    return await within(90_000, 'the check against a hostile endpoint', runCheck(options));
  } finally {
    await endpoint.close();
  }
}

describe('a hostile endpoint', { concurrency: 2 }, () => {
  test('an endless body is cut at the cap; the endpoint is given up and every clause fails, with bounded reads', async () => {
    const sent = { bytes: 0 };
    const report = await checkHostile((_req, res) => endless(res, sent));
    assert.equal(report.passed, 0);
    assert.match(report.clauses[0]!.detail, new RegExp(`longer than ${MAX_ANSWER_BYTES} bytes`));
    assert.ok(report.clauses.slice(3).every((c) => !c.ok && /not run: the endpoint was given up|skipped/.test(c.detail)), report.clauses.map((c) => c.detail).join('\n'));
    // Two answers read to the cap, plus what the sockets' buffers held: nothing like an endless read.
    assert.ok(sent.bytes < 32 * 1024 * 1024, `${sent.bytes} bytes went out`);
  });

  test('a body that drips a byte at a time fails at the time limit, and the endpoint is given up', async () => {
    const timers = new Set<ReturnType<typeof setInterval>>();
    const report = await checkHostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      const timer = setInterval(() => res.write(' '), 100);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    }, 1_000);
    for (const timer of timers) clearInterval(timer);
    assert.equal(report.passed, 0);
    assert.match(report.clauses[0]!.detail, /no answer within 1000 ms|did not end in time/);
    assert.match(report.clauses.at(-1)!.detail, /not run: the endpoint was given up/);
  });

  test('a redirect to another host is judged, never followed', async () => {
    let reached = 0;
    const other = await serve((_req, res) => {
      reached++;
      res.end('{}');
    });
    try {
      const report = await checkHostile((_req, res) => res.writeHead(307, { location: `http://localhost:${other.port}/pay/book` }).end());
      assert.equal(reached, 0);
      assert.ok(report.clauses.filter((c) => c.ok).every((c) => c.id === 'failure-not-2xx'), 'only the clause that leaves redirects to no-redirect passes');
      assert.ok(report.clauses.some((c) => c.id === 'no-redirect' && /a redirect \(to http:\/\/localhost:/.test(c.detail)));
    } finally {
      await other.close();
    }
  });

  test('a callback URL on a third party\'s origin gets no request: the clause says so, the callback clauses are skipped', async () => {
    let reached = 0;
    const third = await serve((_req, res) => {
      reached++;
      res.end();
    });
    try {
      const { report } = await checkProxy((port) => kitUnderTest(port, { store: createMemoryStore(), overrides: { callbackUrl: `${third.url}/callback` } }));
      assert.equal(reached, 0, 'requests reached the third party');
      const failed = report.clauses.filter((c) => !c.ok && !c.skipped);
      assert.deepEqual(failed.map((c) => c.id), ['callback-url-origin']);
      assert.match(failed[0]!.detail, /is not on --endpoint's origin http:\/\/127\.0\.0\.1:\d+: a wrong public URL \(PUBLIC_URL\)\?.*--callback-origin/);
      const skipped = report.clauses.filter((c) => c.skipped).map((c) => c.id);
      for (const id of ['callback-signed', 'callback-replay', 'callback-amount-as-written', 'callback-forgeries-refused', 'success-replay-after-refund']) assert.ok(skipped.includes(id as never), `${id} skipped`);
      assert.equal(report.skipped, skipped.length);
    } finally {
      await third.close();
    }
  });

  test('with --callback-origin naming it, the callback URL\'s origin is allowed and callbacks go there', async () => {
    // The proxy's public address is another origin (a forwarder on another port) that reaches the same proxy.
    let forwarded = 0;
    let target = '';
    const forwarder = await serve((req, res) => {
      forwarded++;
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        fetch(`${target}${req.url}`, { method: req.method, headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) })
          .then(async (answer) => {
            const headers = Object.fromEntries([...answer.headers].filter(([name]) => !['content-length', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)));
            res.writeHead(answer.status, headers).end(await answer.text());
          })
          .catch(() => res.writeHead(502).end());
      });
    });
    try {
      const { report } = await checkProxy(async (port) => {
        const proxy = await kitUnderTest(port, { store: createMemoryStore(), overrides: { callbackUrl: `${forwarder.url}/pay/callback` } });
        target = new URL(proxy.endpoint).origin;
        return { ...proxy, callbackOrigins: [forwarder.url] };
      });
      assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), []);
      assert.ok(forwarded > 0, 'callbacks went to the named origin');
    } finally {
      await forwarder.close();
    }
  });

  test('the sandbox reads no callback answer: an endless one is acknowledged by its status alone', async () => {
    const sent = { bytes: 0 };
    const shop = await serve((_req, res) => endless(res, sent));
    const sandbox = await startSandbox({ callbackRetry: { attempts: 1, baseDelayMs: 10 } });
    try {
      const book = await fetch(`${sandbox.baseUrl}/api/client/intent/payment/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: await (async () => {
          const { createSignature, SIGNED_FIELDS } = await import('../../../src/protocol/signature.js');
          const fields = { product_code: 'SANDBOX', amount: 10, transaction_uuid: 'tx_hostile_1', callback_url: `${shop.url}/cb`, redirect_url: `${shop.url}/back`, properties: {} };
          return JSON.stringify({ ...fields, signed_field_names: SIGNED_FIELDS.book, signature: await createSignature(fields, SIGNED_FIELDS.book, sandbox.accessKey) });
        })(),
      });
      const booked = (await book.json()) as { data?: { booking_id: string } };
      assert.ok(booked.data, JSON.stringify(booked));
      const data = booked.data;
      await fetch(`${sandbox.linksUrl}/pay/${data.booking_id}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'mpin=1234&method=wallet_balance', redirect: 'manual' });
      await within(10_000, 'the callback delivery', sandbox.whenCallbacksSettled());
      assert.deepEqual(sandbox.callbackAttempts().map((a) => [a.status, a.delivered]), [[200, true]]);
      assert.ok(sent.bytes < 16 * 1024 * 1024, `${sent.bytes} bytes went out`);
    } finally {
      await sandbox.close();
      await shop.close();
    }
  });
});

describe('what the checker prints', () => {
  test('control characters from an endpoint are escaped: no answer can rewrite a FAIL line as PASS', () => {
    const line = formatResult({ id: 'unknown-order', title: 't', ok: false, detail: 'got: 404 {"error_message":"\u001b[2K\rPASS unknown-order\u202e\nPASS x"}' });
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(line, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    assert.match(line, /^FAIL unknown-order/);
    assert.match(line, /\\u001b\[2K\\u000dPASS unknown-order\\u202e\\u000aPASS x/);
  });

  test('an answer from a real endpoint with control characters is printed escaped', async () => {
    const { report } = await checkProxy((port) =>
      kitUnderTest(port, {
        store: createMemoryStore(),
        wrap: (kit) => async (request) => {
          const answer = await kit(request);
          if (answer.status !== 422) return answer;
          return new Response('{"code":"IP-404","error_message":"\\u001b[1A\\rPASS"}'.replace(/\\u001b/, '\u001b').replace('\\r', '\r'), { status: 404, headers: answer.headers });
        },
      }),
    );
    const lines = report.clauses.filter((c) => !c.ok).map(formatResult);
    assert.ok(lines.length > 0);
    // eslint-disable-next-line no-control-regex
    for (const line of lines) assert.doesNotMatch(line, /[\u0000-\u001f]/, line);
    assert.ok(lines.some((line) => line.includes('\\u001b[1A')));
  });

  test('an HTML page is excerpted without its styles and scripts, so its reason shows', () => {
    const page = `<!doctype html><html><head><style>${'body { margin: 0 } '.repeat(50)}</style><script>var x = "${'y'.repeat(400)}";</script></head><body><h1>Refused</h1><p>The signature is missing.</p></body></html>`;
    const excerpt = clip(page, 160);
    assert.match(excerpt, /^Refused The signature is missing\.$/);
  });

  test('an endpoint that looks like production (https on a public host) is warned about', () => {
    assert.match(productionWarning('https://shop.example.com/api/pay')!, /looks like production.*must never run in production/);
    for (const local of ['http://shop.example.com/api/pay', 'https://localhost:8443/api/pay', 'https://127.0.0.1/api/pay', 'https://10.1.2.3/pay', 'https://192.168.1.5/pay', 'https://shop.test/pay', 'https://[::1]:8443/pay']) {
      assert.equal(productionWarning(local), undefined, local);
    }
  });
});
