/**
 * `npm run soak [-- --minutes 10]`: a merchant's soak of the server kit. Two handler processes on one
 * PostgreSQL (a throwaway server, scripts/postgres.mjs), the sandbox, and mixed traffic on loopback for
 * the given time: payments with a retry of their key on the other process, two tabs per order,
 * refusals, cancels, refunds, callbacks whose first delivery fails and is retried, reconcile passes.
 * It prints the requests, the answers by code, p50/p99, each process's memory at start and end, and
 * checks the end state against each booking's record at the sandbox, kept by the soak for the whole run
 * (bench/soak-ledger.ts): every final result delivered once, no order paid twice, nothing lost, no 5xx
 * to the shoppers. Exit code 1 when a check fails. `--model` runs the generated interleavings instead
 * (bench/soak-model.ts).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '../scripts/postgres.mjs';
import { startSandbox, type Sandbox } from '../src/sandbox/index.js';
import { judge, SoakLedger, type BookingRecords, type Delivered } from './soak-ledger.js';
import { summarize } from './stats.js';

const PRODUCT = 'SOAK01';
const ACCESS_KEY = 'soak-access-key';
/** Shoppers at once. */
const SHOPPERS = 6;
/** A shopper's request waits at most this long; a status poll at most this many times. */
const REQUEST_TIMEOUT_MS = 15_000;
const STATUS_POLLS = 40;
/** How often the sandbox's list is read for bookings no shopper was answered. */
const SWEEP_MS = 2_000;

/** Options of {@link runSoak}. */
export interface SoakOptions {
  minutes: number;
  log?: (line: string) => void;
  /**
   * Reads only the newest this many bookings from the sandbox's list, as if it kept no more (it keeps
   * 10,000): a short run then goes past the list's bound, to show the checks never count from it.
   */
  listBound?: number;
}

/** What a soak measured and found. */
export interface SoakReport {
  seconds: number;
  requests: number;
  byCode: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  scenarios: Record<string, number>;
  /** Each process's memory after the warm-up (a tenth of the run, at most 60 s) and at the end. */
  memory: Array<{ pid: number; start: { rss: number; heapUsed: number }; end: { rss: number; heapUsed: number } }>;
  /** Bookings the soak saw at the service, the whole run. */
  bookings: number;
  /** Bookings the sandbox's list held at the end (at most its bound). */
  listed: number;
  paid: number;
  injected: { hookFailures: number; callbackRetries: number };
  /** Each check and the problems it found (empty when it holds). */
  checks: Record<string, string[]>;
}

interface Worker {
  child: ChildProcess;
  url: string;
  ask<T>(message: Record<string, unknown>): Promise<T>;
}

type Answer = { status: number; body: { code: string; data?: Record<string, string>; error_message?: string } };

/** What the shoppers send and what they were answered. */
interface Traffic {
  latencies: number[];
  byCode: Record<string, number>;
  /** Every booking answered to a shopper. */
  received: Set<string>;
  plays: Record<string, () => Promise<void>>;
  /** The plays, weighted: a shopper picks one of these each round. */
  weights: string[];
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The shoppers' scenarios against the two processes, each answer counted and each booking followed in the ledger. */
function createTraffic(workers: Worker[], sandbox: Sandbox, ledger: SoakLedger, problems: string[]): Traffic {
  const latencies: number[] = [];
  const byCode: Record<string, number> = {};
  const received = new Set<string>();
  let orders = 0;

  async function call(worker: Worker, route: string, body: unknown, key?: string): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${worker.url}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const parsed = (await response.json()) as Answer['body'];
    latencies.push(performance.now() - started);
    const code = `${parsed.code} (${response.status})`;
    byCode[code] = (byCode[code] ?? 0) + 1;
    if (response.status >= 500) problems.push(`5xx to a shopper: ${route} ${code} ${parsed.error_message ?? ''}`);
    if (route === 'book' && parsed.data?.booking_id) {
      received.add(parsed.data.booking_id);
      ledger.follow(parsed.data.booking_id);
    }
    return { status: response.status, body: parsed };
  }

  async function pay(bookingId: string, mpin: string): Promise<void> {
    await fetch(`${sandbox.linksUrl}/pay/${encodeURIComponent(bookingId)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ mpin, method: 'wallet_balance' }).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }

  /** Asks /status (on either process) until the booking is final; the status it ended with. */
  async function settle(booking: Record<string, string>): Promise<string> {
    for (let i = 0; i < STATUS_POLLS; i++) {
      const answer = await call(pick(workers), 'status', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
      const status = answer.body.data?.status ?? answer.body.code;
      if (['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED'].includes(status)) return status;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return 'not final';
  }

  /** Books an order with a key on one process and replays the key on the other: one booking. */
  async function bookWithRetry(order: string): Promise<Record<string, string> | undefined> {
    const key = `soak-${crypto.randomUUID()}`;
    const [first, second] = [...workers].sort(() => Math.random() - 0.5) as [Worker, Worker];
    const channel = pick(['app', 'web'] as const);
    const booked = await call(first, 'book', { channel, order: { id: order } }, key);
    const again = await call(second, 'book', { channel, order: { id: order } }, key);
    if (booked.body.data?.booking_id !== again.body.data?.booking_id) {
      problems.push(`a replayed key got another booking: ${JSON.stringify([booked.body, again.body])}`);
    }
    return booked.body.data;
  }

  const plays: Record<string, () => Promise<void>> = {
    async payment() {
      const booking = await bookWithRetry(`S-${++orders}`);
      if (!booking) return;
      await pay(booking.booking_id!, '1234');
      const status = await settle(booking);
      if (status !== 'SUCCESS') problems.push(`a payment ended ${status}`);
    },
    async refusal() {
      const booking = await bookWithRetry(`S-${++orders}`);
      if (!booking) return;
      await pay(booking.booking_id!, '0000');
      const status = await settle(booking);
      if (status !== 'FAILED') problems.push(`a refused payment ended ${status}`);
    },
    async cancel() {
      const booking = await bookWithRetry(`S-${++orders}`);
      if (!booking) return;
      const answer = await call(pick(workers), 'cancel', { booking_id: booking.booking_id, correlation_id: booking.correlation_id });
      if (answer.body.data?.status !== 'CANCELED') problems.push(`a cancel answered ${JSON.stringify(answer.body)}`);
    },
    async refund() {
      const booking = await bookWithRetry(`S-${++orders}`);
      if (!booking) return;
      await pay(booking.booking_id!, '1234');
      if ((await settle(booking)) !== 'SUCCESS') return;
      sandbox.revert(booking.booking_id!);
      const status = await settle(booking);
      ledger.read(booking.booking_id!);
      if (status !== 'REVERTED') problems.push(`a refund ended ${status}`);
    },
    async twoTabs() {
      const order = `S-${++orders}`;
      const tabs = await Promise.all(workers.map((worker) => call(worker, 'book', { channel: 'app', order: { id: order } }, `soak-${crypto.randomUUID()}`)));
      const booked = tabs.map((answer) => answer.body.data).filter((data): data is Record<string, string> => data !== undefined);
      // The shopper pays in both tabs: at most one can succeed.
      await Promise.all(booked.map((booking) => pay(booking.booking_id!, '1234')));
      await Promise.all(booked.map((booking) => settle(booking)));
    },
  };
  const weights: Array<keyof typeof plays> = ['payment', 'payment', 'payment', 'refusal', 'cancel', 'refund', 'twoTabs', 'twoTabs'];
  return { latencies, byCode, received, plays, weights };
}

/** Runs the soak and returns its report (the processes, the sandbox and the database are stopped). */
export async function runSoak({ minutes, log = () => {}, listBound }: SoakOptions): Promise<SoakReport> {
  if (!Number.isFinite(minutes) || minutes <= 0) throw new TypeError(`--minutes must be a positive number; got ${minutes}.`);
  const postgres = await startPostgres();
  const sandbox = await startSandbox({ accessKey: ACCESS_KEY, productCode: PRODUCT, callbackRetry: { attempts: 4, baseDelayMs: 100 } });
  const records = listBound === undefined ? sandbox : boundedList(sandbox, listBound);
  const ledger = new SoakLedger(records);
  let sweeper: ReturnType<typeof setInterval> | undefined;
  const workers: Worker[] = [];
  const delivered: Delivered[] = [];
  const hookFailures: unknown[] = [];
  const problems: string[] = [];
  try {
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query('CREATE DATABASE soak');
    await admin.end();
    const databaseUrl = postgres.url.replace(/\/postgres$/, '/soak');
    for (let i = 0; i < 2; i++) {
      workers.push(await startWorker({ DATABASE_URL: databaseUrl, SERVICE_URL: sandbox.baseUrl, PRODUCT_CODE: PRODUCT, ACCESS_KEY }, delivered, hookFailures, problems));
    }
    log(`soak: 2 handler processes (${workers.map((w) => w.child.pid).join(', ')}) on PostgreSQL ${postgres.url}, sandbox ${sandbox.baseUrl}, ${minutes} min`);

    const scenarios: Record<string, number> = {};
    const { latencies, byCode, received, plays, weights } = createTraffic(workers, sandbox, ledger, problems);

    const started = Date.now();
    const deadline = started + minutes * 60_000;
    // "Start" is after a warm-up under traffic (a tenth of the run, at most 60 s): the code is compiled
    // and the pools are full by then, so start to end shows growth, not start-up.
    const warmup = new Promise<Array<{ rss: number; heapUsed: number }>>((resolve, reject) => {
      setTimeout(() => {
        Promise.all(workers.map((w) => w.ask<{ rss: number; heapUsed: number }>({ type: 'memory' }))).then(resolve, reject);
      }, Math.min(60_000, minutes * 6_000));
    });
    // Bounded in count as well as time: at most this many scenarios per shopper, far above what a
    // shopper completes in a second (about 25 on a quiet 2-core machine), so time ends the run.
    const maxRounds = Math.ceil(minutes * 60 * 100);
    const shoppers = Array.from({ length: SHOPPERS }, async () => {
      for (let round = 0; round < maxRounds && Date.now() < deadline; round++) {
        const name = pick(weights);
        scenarios[name] = (scenarios[name] ?? 0) + 1;
        await plays[name]!().catch((error: unknown) => problems.push(`${name}: ${String(error)}`));
        ledger.poll();
      }
    });
    sweeper = setInterval(() => ledger.sweep(), SWEEP_MS);
    let reconciling = true;
    const reconciler = (async () => {
      while (reconciling && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await Promise.all(workers.map((w) => w.ask({ type: 'reconcile' })));
      }
    })();
    await Promise.all(shoppers);
    const memoryStart = await warmup;
    reconciling = false;
    await reconciler;
    const seconds = (Date.now() - started) / 1000;

    // Let the retried callbacks land, then two passes deliver whatever a failed hook left.
    // The cap is cleared once the callbacks settle: left to run, it kept the process alive ten seconds more.
    let cap: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([sandbox.whenCallbacksSettled(), new Promise((resolve) => (cap = setTimeout(resolve, 10_000)))]);
    clearTimeout(cap);
    for (let i = 0; i < 2; i++) await Promise.all(workers.map((w) => w.ask({ type: 'reconcile' })));
    const memoryEnd = await Promise.all(workers.map((w) => w.ask<{ rss: number; heapUsed: number }>({ type: 'memory' })));

    clearInterval(sweeper);
    ledger.sweep();
    ledger.poll();
    const checks = await judge(ledger, databaseUrl, delivered, received, problems);
    const seen = ledger.bookings();
    const report: SoakReport = {
      seconds,
      requests: latencies.length,
      byCode,
      p50Ms: summarize(latencies).median,
      p99Ms: summarize(latencies).p99,
      scenarios,
      memory: workers.map((w, i) => ({ pid: w.child.pid!, start: memoryStart[i]!, end: memoryEnd[i]! })),
      bookings: seen.length,
      listed: records.listBookings().length,
      paid: seen.filter((b) => b.status === 'SUCCESS' || b.status === 'REVERTED').length,
      injected: { hookFailures: hookFailures.length, callbackRetries: ledger.callbackRetries() },
      checks,
    };
    return report;
  } finally {
    clearInterval(sweeper);
    for (const worker of workers) worker.child.kill('SIGTERM');
    await sandbox.close();
    await postgres.stop();
  }
}

async function startWorker(
  env: Record<string, string>,
  delivered: Delivered[],
  hookFailures: unknown[],
  problems: string[],
): Promise<Worker> {
  const child = fork(fileURLToPath(new URL('./soak-worker.ts', import.meta.url)), {
    // --expose-gc: memory is read after a full collection, so growth is what stays, not garbage not yet collected.
    execArgv: ['--expose-gc', '--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waiting = new Map<number, (value: unknown) => void>();
  let asked = 0;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a soak worker did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`a soak worker exited (${code}) before it was ready`)));
    child.on('message', (message: { type: string; id?: number; url?: string; injected?: boolean; message?: string; route?: string } & Delivered) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url!);
      } else if (message.type === 'delivered') {
        delivered.push(message);
      } else if (message.type === 'hook-failed') {
        hookFailures.push(message);
      } else if (message.type === 'error') {
        // Injected hook failures come back through onError; anything else is a finding.
        if (!message.injected) problems.push(`onError (${message.route ?? '?'}): ${message.message}`);
      } else if (message.id !== undefined) {
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
      }
    });
  });
  return {
    child,
    url,
    ask<T>(message: Record<string, unknown>): Promise<T> {
      const id = ++asked;
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`a soak worker did not answer ${String(message.type)} within 30 s`)), 30_000);
        waiting.set(id, (value) => {
          clearTimeout(timer);
          resolve(value as T);
        });
        child.send({ ...message, id });
      });
    },
  };
}

/**
 * The sandbox with its list cut to the newest `bound` bookings: what a run past the sandbox's own bound
 * sees, reached in seconds. A booking's own record is read as the sandbox answers it.
 */
function boundedList(sandbox: Sandbox, bound: number): BookingRecords {
  return { getBooking: (id) => sandbox.getBooking(id), listBookings: () => sandbox.listBookings().slice(-bound), callbackAttempts: () => sandbox.callbackAttempts() };
}

/** Prints a report the way a merchant reads it. */
export function formatReport(report: SoakReport): string {
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `Soak: ${report.seconds.toFixed(0)} s, ${report.requests} requests to the handlers, ${report.bookings} bookings at the service (${report.listed} in its list at the end), ${report.paid} paid`,
    `Scenarios: ${Object.entries(report.scenarios).map(([name, n]) => `${name} ${n}`).join(', ')}`,
    `Answers by code: ${Object.entries(report.byCode).sort().map(([code, n]) => `${code} ${n}`).join(', ')}`,
    `Latency: p50 ${report.p50Ms.toFixed(1)} ms, p99 ${report.p99Ms.toFixed(1)} ms`,
    `Injected: ${report.injected.hookFailures} hook failures (first delivery), ${report.injected.callbackRetries} callback retries`,
    ...report.memory.map(
      (m) => `Process ${m.pid}: rss ${mb(m.start.rss)} -> ${mb(m.end.rss)} (${(((m.end.rss - m.start.rss) / m.start.rss) * 100).toFixed(1)} %), heap ${mb(m.start.heapUsed)} -> ${mb(m.end.heapUsed)}`,
    ),
    ...Object.entries(report.checks).map(([name, found]) => `${found.length === 0 ? 'OK  ' : 'FAIL'} ${name}${found.length ? `: ${found.slice(0, 10).join('; ')}${found.length > 10 ? ` (+${found.length - 10})` : ''}` : ''}`),
  ];
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1] && process.argv.includes('--model')) {
  // `--model`: the generated interleavings (bench/soak-model.ts) instead of the mixed traffic.
  const { runModelSoak, formatModelReport } = await import('./soak-model.js');
  const at = process.argv.indexOf('--minutes');
  const report = await runModelSoak({ minutes: at >= 0 ? Number(process.argv[at + 1]) : 10, log: (line) => console.log(line) });
  console.log(formatModelReport(report));
  process.exitCode = report.failure ? 1 : 0;
} else if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const at = process.argv.indexOf('--minutes');
  const minutes = at >= 0 ? Number(process.argv[at + 1]) : 10;
  const report = await runSoak({ minutes, log: (line) => console.log(line) });
  console.log(formatReport(report));
  process.exitCode = Object.values(report.checks).every((found) => found.length === 0) ? 0 : 1;
}
