/**
 * `npm run soak:sandbox [-- --minutes 10]`: the sandbox under seeded chaos for a while, to show its
 * memory stays bounded. The sandbox runs in its own process (bench/sandbox-soak-worker.ts) with
 * `timeouts=0.16,errors=0.05,latency=200ms,hold=2s --seed 42`; shoppers on loopback book with every
 * scenario, pay, ask the status, cancel, move the clock, read the callback desk and resend; a callback
 * receiver refuses one callback in five. It prints the traffic, the sandbox's kept records and its
 * memory (after a full collection) after the warm-up, at its highest, and at the end. Exit code 1 when
 * the heap at the end is more than 64 MB above the warm-up's (what keeps growing is not bounded).
 */
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const KEY = 'soak-key';
const SHOPPERS = 24;
const CHAOS = { timeouts: 0.16, errors: 0.05, latencyMs: 200, holdMs: 2000, seed: 42 };

type Memory = { rss: number; heapUsed: number };
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const sign = (message: string) => createHmac('sha256', KEY).update(message).digest('base64');

async function call(url: string, init: RequestInit): Promise<number> {
  try {
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { minutes: { type: 'string', default: '10' } } });
  const minutes = Number(values.minutes);
  if (!(minutes > 0)) throw new TypeError(`--minutes must be a positive number; got ${values.minutes}.`);

  let callbacks = 0;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      callbacks++;
      res.writeHead(callbacks % 5 === 0 ? 500 : 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/cb`;

  const child = fork(fileURLToPath(new URL('./sandbox-soak-worker.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    env: { ...process.env, SOAK_CHAOS: JSON.stringify(CHAOS) },
  });
  const waiting = new Map<string, (value: unknown) => void>();
  child.on('message', (message: { type: string }) => waiting.get(message.type)?.(message));
  const ask = <T>(type: string): Promise<T> =>
    new Promise((resolve) => {
      waiting.set(type, resolve as (value: unknown) => void);
      child.send({ type });
    });
  const { baseUrl } = await new Promise<{ baseUrl: string }>((resolve) => waiting.set('ready', resolve as (value: unknown) => void));

  const byStatus: Record<string, number> = {};
  let requests = 0;
  const count = (status: number) => {
    requests++;
    byStatus[status] = (byStatus[status] ?? 0) + 1;
  };
  const end = Date.now() + minutes * 60_000;
  const warmupAt = Date.now() + Math.min(60_000, (minutes * 60_000) / 10);
  let n = 0;

  async function shopper(): Promise<void> {
    while (Date.now() < end) {
      const i = ++n;
      const uuid = `soak-${i}`;
      const amount = 9001 + (i % 16);
      const body = {
        product_code: 'SOAK', amount, transaction_uuid: uuid, signed_field_names: 'product_code,amount,transaction_uuid',
        signature: sign(`product_code=SOAK,amount=${amount},transaction_uuid=${uuid}`), callback_url: callbackUrl,
        redirect_url: 'http://127.0.0.1:9/return', properties: { order_id: `O-${i}` },
      };
      let booked: { booking_id?: string; correlation_id?: string } = {};
      try {
        const response = await fetch(`${baseUrl}/api/client/intent/payment/book`, { ...json(body), signal: AbortSignal.timeout(5_000) });
        count(response.status);
        booked = ((await response.json()) as { data?: typeof booked }).data ?? {};
      } catch {
        count(0);
      }
      if (!booked.booking_id) continue;
      const id = booked.booking_id;
      if (i % 7 !== 0) {
        count(await call(`${baseUrl}/web/pay/${id}/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'mpin=1234&method=wallet_balance' }));
      }
      count(await call(`${baseUrl}/api/client/intent/payment/status`, json({ booking_id: id, product_code: 'SOAK', correlation_id: booked.correlation_id, signed_field_names: 'booking_id,product_code,correlation_id', signature: sign(`booking_id=${id},product_code=SOAK,correlation_id=${booked.correlation_id}`) })));
      if (i % 5 === 0) count(await call(`${baseUrl}/api/client/intent/payment/cancel`, json({ booking_id: id, product_code: 'SOAK', signed_field_names: 'booking_id,product_code', signature: sign(`booking_id=${id},product_code=SOAK`) })));
      if (i % 50 === 0) count(await call(`${baseUrl}/sandbox/clock`, json({ advance: '1m' })));
      if (i % 20 === 0) count(await call(`${baseUrl}/sandbox/callbacks?state=dead`, { method: 'GET' }));
      if (i % 40 === 0) count(await call(`${baseUrl}/sandbox/callbacks/CB-${Math.max(1, i - 30)}/resend`, json({})));
    }
  }

  const peak: Memory = { rss: 0, heapUsed: 0 };
  let start: Memory | undefined;
  const sampler = setInterval(() => {
    void ask<Memory>('memory').then((m) => {
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
      if (!start && Date.now() >= warmupAt) start = m;
      process.stdout.write(`  ${new Date().toISOString().slice(11, 19)} rss ${mb(m.rss)}, heap ${mb(m.heapUsed)}, requests ${requests}\n`);
    });
  }, 30_000);
  await Promise.all(Array.from({ length: SHOPPERS }, shopper));
  clearInterval(sampler);
  const last = await ask<Memory>('memory');
  const counts = await ask<Record<string, number>>('counts');
  start ??= last;
  child.send({ type: 'stop' });
  receiver.close();
  receiver.closeAllConnections();

  const growth = last.heapUsed - start.heapUsed;
  console.log(
    [
      `Sandbox chaos soak: ${minutes} min, ${SHOPPERS} shoppers, chaos timeouts=0.16,errors=0.05,latency=200ms,hold=2s seed 42`,
      `Requests: ${requests} (${Object.entries(byStatus).map(([s, c]) => `${s === '0' ? 'no answer' : s}: ${c}`).join(', ')}); callbacks received: ${callbacks}`,
      `Kept: ${counts['bookings']} bookings, ${counts['deliveries']} deliveries, ${counts['attempts']} attempts; ${counts['chaosLines']} chaos faults logged`,
      `Memory (after GC): warm-up rss ${mb(start.rss)} heap ${mb(start.heapUsed)}; peak rss ${mb(peak.rss)} heap ${mb(peak.heapUsed)}; end rss ${mb(last.rss)} heap ${mb(last.heapUsed)}`,
      `Heap growth after the warm-up: ${mb(growth)} (${growth <= 64 * 1024 * 1024 ? 'bounded' : 'NOT bounded'})`,
    ].join('\n'),
  );
  return growth <= 64 * 1024 * 1024 ? 0 : 1;
}

process.exitCode = await main();
