/**
 * The bench against real merchants: the clock, the callback desk and seeded chaos with the kit's own
 * handler (node:http on loopback), the example proxies (PHP's built-in server, Python's standard
 * library server, as real processes) and the playground (the Vite dev server with its merchant kit).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox/index.js';
import { createMemoryStore, createPaymentHandler } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/node.js';
import { PLAYGROUND_PRODUCT_CODE } from '../../../demo/server/playground.js';
import { startPlayground } from '../../e2e/support.js';
import { startExample } from '../check/examples.js';
import { freePort, serve } from '../check/support.js';
import { control, pay, until } from './support.js';

/** A merchant under test, with the sandbox it talks to. */
interface Merchant {
  endpoint: string;
  sandbox: Sandbox;
  productCode: string;
  order(n: number): { id: string };
  stop(): Promise<void>;
}

type Kind = 'kit' | 'php' | 'python' | 'playground';

const dir = mkdtempSync(join(tmpdir(), 'wpb-bench-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let dbs = 0;

const BASE: SandboxOptions = { accessKey: 'sandbox-access-key', productCode: 'SANDBOX', callbackRetry: { attempts: 6, baseDelayMs: 30_000 } };

async function startMerchant(kind: Kind, extra: SandboxOptions = {}): Promise<Merchant> {
  if (kind === 'playground') {
    const pg = await startPlayground({ callbackRetry: BASE.callbackRetry!, ...extra });
    return { endpoint: `${pg.origin}/api/pay`, sandbox: pg.sandbox, productCode: PLAYGROUND_PRODUCT_CODE, order: (n) => ({ id: `A-1001/bench${n}` }), stop: () => pg.close() };
  }
  const sandbox = await startSandbox({ ...BASE, ...extra });
  if (kind === 'kit') {
    // The callback URL names the kit's own port, so the port is taken first and the handler made for it.
    const port = await freePort();
    const running = await serve(
      toNodeListener(
        createPaymentHandler({
          serviceUrl: sandbox.baseUrl,
          productCode: 'SANDBOX',
          accessKey: 'sandbox-access-key',
          store: createMemoryStore(),
          callbackUrl: `http://127.0.0.1:${port}/api/pay/callback`,
          redirectUrl: `http://127.0.0.1:${port}/return`,
          lookupOrder: async (order) => ({ id: String(order.id), amount: 1250.5 }),
          onPaymentResult: () => undefined,
          timeoutMs: 5000,
        }),
      ),
      port,
    );
    return { endpoint: `${running.url}/api/pay`, sandbox, productCode: 'SANDBOX', order: (n) => ({ id: `K-${n}` }), stop: async () => (await running.close(), await sandbox.close()) };
  }
  const example = await startExample(kind, { sandboxPort: Number(new URL(sandbox.baseUrl).port), db: join(dir, `shop-${++dbs}.sqlite`), orderPrefix: 'B-', amount: 1250.5 });
  return { endpoint: example.endpoint, sandbox, productCode: 'SANDBOX', order: (n) => ({ id: `B-${n}` }), stop: async () => (await example.stop(), await sandbox.close()) };
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: { code?: string; data?: Record<string, string> } }> {
  try {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
    const text = await response.text();
    let parsed = {};
    try {
      parsed = JSON.parse(text);
    } catch {
      // a bare answer
    }
    return { status: response.status, body: parsed };
  } catch {
    return { status: 0, body: {} };
  }
}

/** Books through the merchant as the element does, retrying the same key (at most `tries` times). */
async function bookThrough(m: Merchant, n: number, tries = 1, key = `bench-${crypto.randomUUID()}`): Promise<{ data: Record<string, string>; faults: number }> {
  let faults = 0;
  for (let i = 0; i < tries; i++) {
    const answer = await post(`${m.endpoint}/book`, { channel: 'app', order: m.order(n) }, { 'idempotency-key': key });
    if (answer.status === 200 && answer.body.data) return { data: answer.body.data, faults };
    faults++;
  }
  throw new Error(`the merchant did not book in ${tries} tries`);
}

async function merchantStatus(m: Merchant, data: Record<string, string>, tries = 1): Promise<string | undefined> {
  for (let i = 0; i < tries; i++) {
    const answer = await post(`${m.endpoint}/status`, { booking_id: data['booking_id'], correlation_id: data['correlation_id'] });
    if (answer.status === 200) return answer.body.data?.['status'];
  }
  return undefined;
}

for (const kind of ['kit', 'php', 'python', 'playground'] as const) {
  describe(`the bench with ${kind === 'kit' ? "the kit's handler" : kind === 'playground' ? 'the playground' : `the ${kind} example proxy`}`, () => {
    let m: Merchant;
    before(async () => {
      m = await startMerchant(kind);
    });
    after(() => m?.stop());

    test('the clock: a late callback (WPS-010) reaches the merchant when the clock passes six minutes; an unpaid booking expires when it passes the TTL', async () => {
      await control(m.sandbox.baseUrl, '/sandbox/scenario', { product_code: m.productCode, scenario: 'WPS-010' });
      const { data } = await bookThrough(m, 1);
      await control(m.sandbox.baseUrl, '/sandbox/scenario', { product_code: m.productCode, scenario: null });
      assert.equal((await pay(m.sandbox.baseUrl, data['booking_id']!)).status, 303);
      await until(() => m.sandbox.callbackDeliveries({ booking_id: data['booking_id']! }).length > 0, 'the late callback on the desk');
      const before = await control<Array<{ state: string; attempts: unknown[] }>>(m.sandbox.baseUrl, `/sandbox/callbacks?booking_id=${data['booking_id']}`);
      assert.deepEqual(before.data.map((d) => [d.state, d.attempts.length]), [['scheduled', 0]]);
      const was = Date.parse((await control<{ now: string }>(m.sandbox.baseUrl, '/sandbox/clock')).data.now);
      const moved = await control<{ now: string }>(m.sandbox.baseUrl, '/sandbox/clock', { advance: '6m' });
      assert.ok(Date.parse(moved.data.now) - was >= 360_000, 'the clock moved six minutes');
      const after = await control<Array<{ state: string; attempts: Array<{ status: number }> }>>(m.sandbox.baseUrl, `/sandbox/callbacks?booking_id=${data['booking_id']}`);
      assert.equal(after.data[0]?.state, 'delivered', JSON.stringify(after.data));
      assert.ok(after.data[0]!.attempts[0]!.status >= 200 && after.data[0]!.attempts[0]!.status < 300);
      assert.equal(await merchantStatus(m, data), 'SUCCESS');

      const unpaid = (await bookThrough(m, 2)).data;
      await control(m.sandbox.baseUrl, '/sandbox/clock', { advance: '15m' });
      assert.equal(await merchantStatus(m, unpaid), 'CANCELED');
    });

    test('the desk: the delivery with the merchant\'s answer; a resend the merchant accepts; a resend elsewhere refused; a dead letter listed', async () => {
      const { data } = await bookThrough(m, 3);
      await pay(m.sandbox.baseUrl, data['booking_id']!);
      await until(() => m.sandbox.callbackDeliveries({ booking_id: data['booking_id']! }).some((d) => d.state === 'delivered'), 'the callback delivered');
      const [delivery] = (await control<Array<{ id: string; url: string; status: string; attempts: Array<{ status: number; answer: string }> }>>(m.sandbox.baseUrl, `/sandbox/callbacks?booking_id=${data['booking_id']}`)).data;
      assert.equal(delivery!.status, 'SUCCESS');
      assert.ok(delivery!.attempts[0]!.answer.length > 0, 'the merchant\'s answer is kept');

      const resent = await control<{ id: string }>(m.sandbox.baseUrl, `/sandbox/callbacks/${delivery!.id}/resend`, {});
      assert.equal(resent.status, 200);
      await until(() => m.sandbox.callbackDeliveries().find((d) => d.id === resent.data.id)?.state === 'delivered', 'the resend delivered (the merchant takes a duplicate)');

      const relay = await control(m.sandbox.baseUrl, `/sandbox/callbacks/${delivery!.id}/resend`, { url: 'http://merchant.example/cb' });
      assert.equal(relay.status, 422);
      assert.match(String(relay.body['error_message']), /own origin .* or to a loopback address/);

      const closed = await serve(() => undefined);
      await closed.close();
      const dead = await control<{ id: string }>(m.sandbox.baseUrl, `/sandbox/callbacks/${delivery!.id}/resend`, { url: `${closed.url}/cb` });
      assert.equal(dead.status, 200);
      await until(() => (m.sandbox.callbackDeliveries().find((d) => d.id === dead.data.id)?.attempts.length ?? 0) > 0, 'the first attempt');
      await control(m.sandbox.baseUrl, '/sandbox/clock', { advance: '1h' });
      const letters = await control<Array<{ id: string; attempts: unknown[] }>>(m.sandbox.baseUrl, '/sandbox/callbacks?state=dead');
      const letter = letters.data.find((d) => d.id === dead.data.id);
      assert.equal(letter?.attempts.length, 6, 'every attempt made, on the clock, then a dead letter');
      const page = await (await fetch(`${m.sandbox.baseUrl}/sandbox/desk`)).text();
      assert.ok(page.includes(dead.data.id) && page.includes('dead'));
    });
  });

  describe(`seeded chaos with ${kind}`, () => {
    let m: Merchant;
    before(async () => {
      m = await startMerchant(kind, { chaos: { errors: 0.25, timeouts: 0.1, latencyMs: 20, holdMs: 300, seed: 7 }, callbackRetry: { attempts: 10, baseDelayMs: 30_000 } });
    });
    after(() => m?.stop());

    test('faults on the API, the pages and the callbacks; the merchant still settles the payment, retrying as the element would', async () => {
      // Chaos gives the same faults to the same booking, and a booking's reference is the kit's to choose
      // (the kit derives it from its lease's fencing token too): orders are paid one after another until
      // chaos has struck one of them, each settled whatever struck it.
      let struck = 0;
      let data: Record<string, string> = {};
      for (let n = 10; n < 18 && struck === 0; n++) {
        const booked = await bookThrough(m, n, 20, `bench-chaos-seed-7-${kind}-${n}`);
        data = booked.data;
        let pageFaults = 0;
        for (let i = 0; i < 20; i++) {
          const response = await pay(m.sandbox.baseUrl, data['booking_id']!).catch(() => undefined);
          if (response?.status === 303 || m.sandbox.getBooking(data['booking_id']!)?.status !== 'BOOKED') break;
          pageFaults++;
        }
        assert.equal(m.sandbox.getBooking(data['booking_id']!)?.status, 'SUCCESS');
        await m.sandbox.clock.advance('2h');
        const deliveries = m.sandbox.callbackDeliveries({ booking_id: data['booking_id']! });
        const chaosAttempts = deliveries.flatMap((d) => d.attempts).filter((a) => /chaos/.test(a.error ?? '')).length;
        struck += booked.faults + pageFaults + chaosAttempts;
      }
      assert.ok(struck > 0, 'chaos struck at least once in eight orders');
      assert.equal(await merchantStatus(m, data, 20), 'SUCCESS');
    });
  });
}
