/**
 * One merchant server process for the multi-process tests: the payment handler on the PostgreSQL
 * store, served by node:http on 127.0.0.1. It tells its parent its URL and each delivered result over
 * IPC. Settings come from the environment (the parent sets them). `HANG_AT` stops the process for
 * good at one step, so the parent can kill it there: `book-request` (the order's lease held, the
 * service's book not sent), `book-response` (the service booked, the store not written yet);
 * `book-slow` holds each book `SLOW_MS` before it reaches the service; `after-insert` (the booking
 * saved, not answered yet); `before-complete` (a result's hook finished, not marked delivered yet).
 * `NOW_SKEW_MS` moves the process's clock (the handler's `now`); `FAIL_RENEWALS=1` makes every
 * renewal of an order's lease fail as a database past its deadline would.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createPaymentHandler } from '../../../../src/server/handler.js';
import { toNodeListener } from '../../../../src/server/node.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import type { PaymentStore } from '../../../../src/server/store.js';
import { StoreUnavailableError } from '../../../../src/server/store-errors.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const send = (message: unknown) => process.send?.(message);

const pool = new pg.Pool({
  connectionString: env('DATABASE_URL'),
  max: Number(process.env.POOL_MAX ?? '10'),
  ...(process.env.STATEMENT_TIMEOUT_MS ? { statement_timeout: Number(process.env.STATEMENT_TIMEOUT_MS) } : {}),
});
pool.on('error', (error) => send({ type: 'error', message: String(error) }));
const hookDelayMs = Number(process.env.HOOK_DELAY_MS ?? '0');
const hang = process.env.HOOK_HANG === '1';
const hangAt = process.env.HANG_AT ?? '';
const forever = () => new Promise<never>(() => {});

/** The service client's fetch, stopped for good at `HANG_AT`. */
const serviceFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (hangAt === 'book-request' && url.endsWith('/book')) {
    send({ type: 'hang', at: hangAt });
    return forever();
  }
  if (hangAt === 'book-slow' && url.endsWith('/book')) {
    send({ type: 'slow', at: hangAt });
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.SLOW_MS ?? '0')));
  }
  const response = await fetch(input, init);
  if (hangAt === 'book-response' && url.endsWith('/book')) {
    await response.text();
    send({ type: 'hang', at: hangAt });
    return forever();
  }
  return response;
};

/** The store, stopped for good after its insert or before a completion at `HANG_AT`, its renewals failing with `FAIL_RENEWALS`. */
function stopping(store: PaymentStore): PaymentStore {
  if (process.env.FAIL_RENEWALS === '1') {
    return Object.assign(Object.create(store) as PaymentStore, {
      renewLease: () => Promise.reject(new StoreUnavailableError('deadline', 'The database did not answer in time.')),
    });
  }
  if (hangAt === 'after-insert') {
    return Object.assign(Object.create(store) as PaymentStore, {
      insertBooking: async (...args: Parameters<PaymentStore['insertBooking']>) => {
        await store.insertBooking(...args);
        send({ type: 'hang', at: hangAt });
        return forever();
      },
    });
  }
  if (hangAt === 'before-complete') {
    return Object.assign(Object.create(store) as PaymentStore, {
      completeResult: async () => {
        send({ type: 'hang', at: hangAt });
        return forever();
      },
    });
  }
  return store;
}

const handler = createPaymentHandler({
  serviceUrl: env('SERVICE_URL'),
  productCode: env('PRODUCT_CODE'),
  accessKey: env('ACCESS_KEY'),
  callbackUrl: env('CALLBACK_URL'),
  redirectUrl: 'http://merchant.test/return',
  store: stopping(createPostgresStore(pool, process.env.STORE_DEADLINE_MS ? { deadlineMs: Number(process.env.STORE_DEADLINE_MS) } : {})),
  fetch: serviceFetch,
  ...(process.env.TIMEOUT_MS ? { timeoutMs: Number(process.env.TIMEOUT_MS) } : {}),
  leaseMs: Number(env('LEASE_MS')),
  ...(process.env.NOW_SKEW_MS ? { now: () => Date.now() + Number(process.env.NOW_SKEW_MS) } : {}),
  resultTimeoutMs: Number(process.env.RESULT_TIMEOUT_MS ?? '10000'),
  lookupOrder: (order) => ({ id: String(order.id), amount: 100 + String(order.id).length }),
  onPaymentResult: async (result) => {
    send({ type: 'hook-started', correlation_id: result.correlation_id, status: result.status });
    if (hang) await new Promise(() => {});
    if (hookDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, hookDelayMs));
    send({ type: 'delivered', pid: process.pid, correlation_id: result.correlation_id, status: result.status, source: result.source });
  },
  onError: (error) => send({ type: 'error', message: String(error) }),
});

const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pay` });
});
process.on('disconnect', () => process.exit(0));
