/**
 * The PHP example proxy run as its README's production recipe says (PHP-FPM behind nginx, the README's
 * pool and server block as written): malformed framing is answered 4xx within bounds and the server
 * serves on, one shopper's book waiting on a slow service holds up no other shopper, and every clause of
 * the checker passes. Both servers start once for the file. The service they reach is first a relay in
 * front of a sandbox, so a book can be held at will; the last test closes the relay and the checker's
 * own sandbox takes its port.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCheck } from '../../../src/check/index.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { startPhpProduction, type ProductionProxy } from '../../support/php-fpm.js';
import { AMOUNT, freePort, PREFIX, serve, type Running } from './support.js';
import { within as limited } from '../../support/within.js';
import { clausesFor } from '../../../src/check/clauses.js';

const INTENT_CLAUSES = clausesFor();

/** `within(ms, what, work)`, the order these tests read best in. */
const within = <T>(ms: number, what: string, work: Promise<T>): Promise<T> => limited(work, ms, what);

let dir: string;
let sandbox: Sandbox;
let relay: Running | undefined;
let proxy: ProductionProxy;
/** Books of orders whose id contains this wait here until the test lets them go. */
const held = new Map<string, { arrived(): void; released: Promise<void> }>();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wpb-php-production-'));
  sandbox = await startSandbox();
  const servicePort = await freePort();
  relay = await serve((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      for (const [marker, hold] of held) {
        if (body.includes(marker)) {
          hold.arrived();
          await hold.released;
        }
      }
      try {
        const answer = await fetch(`${sandbox.baseUrl}${req.url}`, {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
          ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
          signal: AbortSignal.timeout(15_000),
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    });
  }, servicePort);
  proxy = await startPhpProduction({ serviceUrl: relay.url, db: join(dir, 'shop.sqlite'), orderPrefix: PREFIX, amount: AMOUNT, dir, port: await freePort() });
});

after(async () => {
  await proxy?.stop();
  await relay?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Sends raw bytes and resolves with the whole answer (by its Content-Length), or what came before the server closed. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request.replace(/\n/g, '\r\n')));
    let answer = '';
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1');
      const end = answer.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: (\d+)\r\n/i.exec(answer.slice(0, end + 2));
      // nginx lingers for the unread body of a refused request: the test does not wait for that.
      if (end >= 0 && length && answer.length >= end + 4 + Number(length[1])) {
        resolve(answer);
        socket.destroy();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer || 'closed'));
  });
}

const book = (order: Record<string, unknown>) =>
  fetch(`${proxy.endpoint}/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': `production-${crypto.randomUUID()}` },
    body: JSON.stringify({ channel: 'app', order }),
    signal: AbortSignal.timeout(30_000),
  });

describe('the PHP example proxy under PHP-FPM behind nginx, as its README says', () => {
  test('malformed framing is answered 400 or 413 (a JSON failure envelope) within bounds, and it serves on', async () => {
    const head = (...lines: string[]) => `POST /api/pay/book HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/json\nIdempotency-Key: production-0123456789abcdef\n${lines.join('\n')}\n\n`;
    const cases: Array<[string, string]> = [
      ['Content-Length: 1e3', head('Content-Length: 1e3') + '{}'],
      ['Content-Length: -1', head('Content-Length: -1') + '{}'],
      ['Content-Length: abc', head('Content-Length: abc') + '{}'],
      ['Content-Length: 7, 7', head('Content-Length: 7, 7') + '{"a":1}'],
      ['Content-Length twice', head('Content-Length: 7', 'Content-Length: 7') + '{"a":1}'],
      ['Content-Length: 2^64', head('Content-Length: 18446744073709551616') + '{}'],
      ['Content-Length: 2^63 - 1', head('Content-Length: 9223372036854775807') + '{}'],
      ['Content-Length: 1e9 digits, short body', head('Content-Length: 1000000000') + '{}'],
      ['chunked past 16 KiB', head('Transfer-Encoding: chunked') + `4800\n${'a'.repeat(0x4800)}\n0\n\n`],
      ['chunked with a bad size', head('Transfer-Encoding: chunked') + 'zz\n{}\n0\n\n'],
    ];
    const answers: Record<string, string> = {};
    for (const [what, request] of cases) {
      const answer = await within(10_000, `an answer to ${what}`, rawRequest(proxy.port, request));
      const status = answer.split('\r\n')[0]!;
      answers[what] = status;
      assert.match(status, /^HTTP\/1\.[01] (400|413) /, `${what}: ${answer}\n${proxy.output()}`);
      // The recipe's error pages: the failure envelope the element and the checker read.
      assert.ok(answer.endsWith(`{"code":"IP-${status.split(' ')[1]}","error_message":"Refused by the web server: malformed or too large."}`), `${what}: ${answer}`);
      assert.match(answer, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i, `${what}: ${answer}`);
    }
    // What stops a php -S with four workers: five of them at once.
    const killers = Array.from({ length: 5 }, () => rawRequest(proxy.port, head('Content-Length: 9223372036854775807') + '{}'));
    for (const answer of await within(10_000, 'answers to five Content-Length: 9223372036854775807 at once', Promise.all(killers))) assert.match(answer, /^HTTP\/1\.[01] 413 /);
    const good = await within(20_000, 'a good book afterwards', book({ id: `${PREFIX}after-${crypto.randomUUID().slice(0, 8)}` }));
    assert.equal(good.status, 200, await good.clone().text());
    assert.equal(((await good.json()) as { code: string }).code, 'IP-201');
  });

  test('one shopper\'s book waiting on a slow service holds up no other shopper', async () => {
    const marker = `${PREFIX}slow-${crypto.randomUUID().slice(0, 8)}`;
    let release!: () => void;
    let arrived!: () => void;
    const slowHeld = new Promise<void>((resolve) => (arrived = resolve));
    held.set(marker, { arrived, released: new Promise<void>((resolve) => (release = resolve)) });
    try {
      const slow = book({ id: marker });
      await within(15_000, 'the slow book reaching the service', slowHeld);
      const other = await within(20_000, 'another shopper\'s book while one waits on the service', book({ id: `${PREFIX}other-${crypto.randomUUID().slice(0, 8)}` }));
      assert.equal(other.status, 200);
      const { data } = (await other.json()) as { data: { booking_id: string; correlation_id: string } };
      const status = await within(20_000, 'another shopper\'s status', fetch(`${proxy.endpoint}/status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ booking_id: data.booking_id, correlation_id: data.correlation_id }), signal: AbortSignal.timeout(20_000) }));
      assert.equal(status.status, 200, await status.clone().text());
      release();
      assert.equal((await within(20_000, 'the slow book once let go', slow)).status, 200);
    } finally {
      release();
      held.delete(marker);
    }
  });

  test('passes every clause of the checker', async () => {
    const servicePort = relay!.port;
    await relay!.close();
    relay = undefined;
    const started = Date.now();
    const report = await runCheck({ endpoint: proxy.endpoint, sandboxPort: servicePort, orderPrefix: PREFIX, amount: AMOUNT, reconcile: proxy.reconcile });
    const ms = Date.now() - started;
    assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), [], proxy.output());
    assert.equal(report.passed, INTENT_CLAUSES.length);
    console.log(`checker against nginx + PHP-FPM: ${ms} ms`);
  });
});
