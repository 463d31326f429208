/**
 * The model soak's process pauses: two handler processes (test/node/server/postgres/worker.ts) on one
 * PostgreSQL database and the sandbox. Each round, tab 1 books an order on process 1, which is stopped
 * (SIGSTOP) at a random moment of that book, for longer than the order's lease (4 s); tab 2 books the
 * same order on process 2; process 1 goes on (SIGCONT). Then at most one booking handed to a tab may be
 * open at the service.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Sandbox } from '../src/sandbox/index.js';

/** Past the order's lease (4 s) with room for a loaded machine. */
const PAUSE_MS = 5_500;
const REQUEST_LIMIT_MS = 30_000;

/** What the rounds found: how many ran, and each break with the moment of the stop. */
export interface PauseReport {
  rounds: number;
  breaks: string[];
}

interface Worker {
  child: ChildProcess;
  url: string;
}

function startWorker(env: Record<string, string>): Promise<Worker> {
  const child = fork(fileURLToPath(new URL('../test/node/server/postgres/worker.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a handler process did not start within 30 s')), 30_000);
    child.on('message', (message: { type: string; url?: string }) => {
      if (message.type !== 'ready') return;
      clearTimeout(timer);
      resolve({ child, url: message.url! });
    });
    child.once('exit', (code) => reject(new Error(`a handler process exited (${code}) before it was ready`)));
  });
}

/** Runs rounds until `deadline` (ms since the epoch); the processes are stopped at the end. */
export async function runProcessPauses(options: { postgresUrl: string; sandbox: Sandbox; productCode: string; accessKey: string; deadline: number }): Promise<PauseReport> {
  const admin = new pg.Client({ connectionString: options.postgresUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE pauses');
  await admin.end();
  const env = {
    DATABASE_URL: options.postgresUrl.replace(/\/postgres$/, '/pauses'),
    SERVICE_URL: options.sandbox.baseUrl,
    PRODUCT_CODE: options.productCode,
    ACCESS_KEY: options.accessKey,
    CALLBACK_URL: 'http://127.0.0.1:9/callback',
    LEASE_MS: '10000',
  };
  const workers: Worker[] = [];
  const report: PauseReport = { rounds: 0, breaks: [] };
  try {
    workers.push(await startWorker(env), await startWorker(env));
    const [first, second] = workers as [Worker, Worker];
    const book = async (worker: Worker, order: string, key: string): Promise<string | undefined> => {
      const response = await fetch(`${worker.url}/book`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ channel: 'app', order: { id: order } }),
        signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
      });
      return ((await response.json()) as { data?: { booking_id?: string } }).data?.booking_id;
    };
    const booked = (answer: Promise<string | undefined>) =>
      answer.catch((error: unknown) => {
        report.breaks.push(`a book did not answer: ${String(error)}`);
        return undefined;
      });
    while (Date.now() < options.deadline) {
      const order = `P-${report.rounds + 1}-${crypto.randomUUID().slice(0, 8)}`;
      const stopAfterMs = Math.floor(Math.random() * 25);
      const held = booked(book(first, order, `tab1-${crypto.randomUUID()}`));
      await new Promise((resolve) => setTimeout(resolve, stopAfterMs));
      first.child.kill('SIGSTOP');
      let handed: Array<string | undefined>;
      try {
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
        const other = await booked(book(second, order, `tab2-${crypto.randomUUID()}`));
        first.child.kill('SIGCONT');
        handed = [await held, other];
      } finally {
        first.child.kill('SIGCONT');
      }
      report.rounds++;
      const open = handed.filter((id): id is string => id !== undefined).filter((id) => ['BOOKED', 'PENDING'].includes(options.sandbox.getBooking(id)?.status ?? ''));
      if (open.length > 1) report.breaks.push(`order ${order}: ${open.length} payable bookings (${open.join(', ')}), process 1 stopped ${stopAfterMs} ms into its book`);
    }
  } finally {
    for (const worker of workers) worker.child.kill('SIGKILL');
  }
  return report;
}
