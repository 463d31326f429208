/**
 * Handler processes for the tests that run the merchant server in child processes on one real
 * database (the PostgreSQL, MySQL and Redis stores' process and fault tests): starting a worker and
 * waiting for its address, asking it, paying on the sandbox's page, and reading an answer as an
 * outage or a late service.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { bundled } from './bundled.js';

/** What a worker reports over IPC: `ready` with its URL, `delivered` for each result its hook got. */
export interface Message {
  type: string;
  url?: string;
  pid?: number;
  correlation_id?: string;
  status?: string;
}

/** A running worker: its process, its URL and every message it sent. */
export interface Worker {
  child: ChildProcess;
  url: string;
  messages: Message[];
}

/** A worker's answer as a shopper's element gets it. */
export interface Answer {
  status: number;
  code: string;
  data?: Record<string, string>;
  ms: number;
  /** The failure envelope's message. */
  message?: string;
  /** The Retry-After header, when the answer had one. */
  retryAfter?: string | null;
}

/** A store outage as the shopper's element sees it: IP-503, with a time to try again. */
export const outage = (a: Answer): boolean => a.status === 503 && a.code === 'IP-503' && /^\d+$/.test(a.retryAfter ?? '');

/**
 * Asks as the shopper's element does through a store outage: `ask` again (the same body and
 * idempotency key) after `pauseMs` while it answers IP-503, up to `tries` times in all. A process
 * that has just started sets its store up on its first request, which a loaded machine can take past
 * a short store deadline. Resolves with the first answer that is not an outage, or the last outage.
 */
export async function throughOutages(ask: () => Promise<Answer>, tries = 20, pauseMs = 200): Promise<Answer> {
  for (let asked = 1; ; asked++) {
    const answer = await ask();
    if (!outage(answer) || asked >= tries) return answer;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

/**
 * A fault that must be felt as an outage, proved by a request of the test's own: `down()` starts it,
 * `probe()` is asked while it holds, and `up()` ends it once the probe is answered and at least
 * `minMs` passed. Traffic alone proves nothing: on a loaded machine every shopper can sit between
 * requests for the whole fault. Resolves with the probe's answer (an {@link outage} when the store
 * kept its promise).
 */
export async function probedFault(down: () => Promise<unknown>, probe: () => Promise<Answer>, up: () => Promise<unknown>, minMs: number): Promise<Answer> {
  await down();
  const since = Date.now();
  const answer = await probe();
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, minMs - (Date.now() - since))));
  await up();
  return answer;
}

/**
 * The sandbox itself late past the workers' service timeout, which a loaded machine can cause: not
 * the database's fault, and told apart by its message (a book waiting out the order's lease is not this).
 */
export const lateService = (a: Answer): boolean => a.status === 504 && a.code === 'IP-504' && /payment service did not answer in time/.test(a.message ?? '');

/**
 * Forks `worker` (a .ts file, bundled for plain node: ./bundled.ts) with `env` and resolves once it
 * reports ready, within 30 s; the child is added to `spawned` at once, so an `after` can kill it
 * whatever happens.
 */
export async function startWorker(worker: URL, env: Record<string, string>, spawned: ChildProcess[]): Promise<Worker> {
  const child = fork(await bundled(worker), { execArgv: ['--enable-source-maps'], env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  spawned.push(child);
  const messages: Message[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('a worker was not ready within 30 s')), 30_000);
    child.on('message', (message: Message) => {
      messages.push(message);
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.url!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before it was ready`));
    });
  });
  return { child, url, messages };
}

/** POSTs JSON to a worker's route; a request that gets no answer within `limitMs` is status 0. */
export async function postTo(worker: Worker, route: string, body: unknown, headers: Record<string, string>, limitMs: number): Promise<Answer> {
  const started = Date.now();
  try {
    const response = await fetch(`${worker.url}/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(limitMs),
    });
    const json = (await response.json()) as { code: string; data?: Record<string, string>; error_message?: string };
    return { status: response.status, code: json.code, message: json.error_message, data: json.data, ms: Date.now() - started, retryAfter: response.headers.get('retry-after') };
  } catch (error) {
    return { status: 0, code: `no answer: ${String(error)}`, ms: Date.now() - started };
  }
}

/** Pays on the sandbox's payment page, as the shopper's wallet would, within `limitMs`. */
export async function payOnServicePage(deeplink: string, limitMs: number): Promise<void> {
  await fetch(`${deeplink}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ mpin: '1234', method: 'wallet_balance' }).toString(),
    redirect: 'manual',
    signal: AbortSignal.timeout(limitMs),
  });
}
