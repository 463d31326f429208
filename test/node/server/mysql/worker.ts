/**
 * One merchant server process for the multi-process tests of the MySQL and Redis stores: the payment
 * handler on the store `STORE` names (`mysql`: a mysql2 pool on `STORE_URL`; `redis`: an ioredis
 * client on `STORE_URL`), served by node:http on 127.0.0.1. It tells its parent its URL and each
 * delivered result over IPC. `HANG_AT=book-request` stops the process for good once it holds an
 * order's lease, before the service's book is sent, so the parent can kill it there.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { createPaymentHandler } from '../../../../src/server/handler.js';
import { toNodeListener } from '../../../../src/server/node.js';
import { createMysqlStore } from '../../../../src/server/mysql.js';
import { createRedisStore } from '../../../../src/server/redis.js';
import type { PaymentStore } from '../../../../src/server/store.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const send = (message: unknown) => process.send?.(message);
const deadline = process.env.STORE_DEADLINE_MS ? { deadlineMs: Number(process.env.STORE_DEADLINE_MS) } : {};

function store(): PaymentStore & { ready(): Promise<void> } {
  if (env('STORE') === 'mysql') {
    const pool = mysql.createPool({ uri: env('STORE_URL'), connectionLimit: 10 });
    // An idle connection the server closed emits 'error'; the next query on the pool reports it.
    pool.on('connection', (connection) => connection.on('error', () => {}));
    return createMysqlStore(pool, deadline);
  }
  const client = new Redis(env('STORE_URL'));
  client.on('error', () => {});
  return createRedisStore(client, deadline);
}

const hangAt = process.env.HANG_AT ?? '';
/** The service client's fetch, stopped for good at `HANG_AT`. */
const serviceFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (hangAt === 'book-request' && url.endsWith('/book')) {
    send({ type: 'hang', at: hangAt });
    return new Promise<never>(() => {});
  }
  return fetch(input, init);
};

// As docs/server.md advises: the tables (or the data version) made ready before the first request, so
// the first books do not wait on another process's set-up (on MariaDB, its DDL's metadata locks).
const paymentStore = store();
await paymentStore.ready();

const handler = createPaymentHandler({
  serviceUrl: env('SERVICE_URL'),
  productCode: env('PRODUCT_CODE'),
  accessKey: env('ACCESS_KEY'),
  callbackUrl: env('CALLBACK_URL'),
  redirectUrl: 'http://merchant.test/return',
  store: paymentStore,
  fetch: serviceFetch,
  ...(process.env.TIMEOUT_MS ? { timeoutMs: Number(process.env.TIMEOUT_MS) } : {}),
  leaseMs: Number(env('LEASE_MS')),
  resultTimeoutMs: Number(process.env.RESULT_TIMEOUT_MS ?? '10000'),
  lookupOrder: (order) => ({ id: String(order.id), amount: 100 + String(order.id).length }),
  onPaymentResult: (result) => {
    send({ type: 'delivered', pid: process.pid, correlation_id: result.correlation_id, status: result.status, source: result.source });
  },
  onError: (error) => send({ type: 'error', message: String(error) }),
});

const server = createServer(toNodeListener(handler));
server.listen(0, '127.0.0.1', () => {
  send({ type: 'ready', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/pay` });
});
process.on('disconnect', () => process.exit(0));
