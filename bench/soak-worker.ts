/**
 * One merchant server process of the soak: the payment handler on the PostgreSQL store, served by
 * node:http on 127.0.0.1. It tells its parent its URL, each delivered result and its memory over IPC,
 * and runs a reconcile pass when asked. Its hook fails the first time for one result in five, so the
 * service's callback retries (and the kit's redelivery) are part of the traffic.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createPaymentHandler } from '../src/server/handler.js';
import { toNodeListener } from '../src/server/node.js';
import { createPostgresStore } from '../src/server/postgres.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const send = (message: unknown) => process.send?.(message);

const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 8, statement_timeout: 5_000 });
pool.on('error', (error) => send({ type: 'error', message: `pool: ${String(error)}` }));
const failedOnce = new Set<string>();

/** The soak's orders: `S-{n}`, priced from their number, the id as the shop's own. */
const priceOf = (id: string) => 100 + (Number(id.slice(2)) % 50);

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const handler = createPaymentHandler({
  serviceUrl: env('SERVICE_URL'),
  productCode: env('PRODUCT_CODE'),
  accessKey: env('ACCESS_KEY'),
  // Each process is the callback address of the bookings it makes; either one may deliver.
  callbackUrl: `${origin}/api/pay/callback`,
  redirectUrl: 'http://127.0.0.1:9/return',
  store: createPostgresStore(pool),
  leaseMs: 10_000,
  timeoutMs: 5_000,
  lookupOrder: (order) => (typeof order.id === 'string' && /^S-\d+$/.test(order.id) ? { id: order.id, amount: priceOf(order.id) } : undefined),
  onPaymentResult: (result) => {
    const id = `${result.correlation_id}\n${result.status}`;
    // One result in five fails its first delivery in this process (an order database that hiccups).
    if (!failedOnce.has(id) && Number.parseInt(result.correlation_id.replace(/[^0-9a-f]/g, '').slice(-2) || '0', 16) % 5 === 0) {
      failedOnce.add(id);
      send({ type: 'hook-failed', correlation_id: result.correlation_id, status: result.status, source: result.source });
      throw new Error('injected: the order database hiccupped');
    }
    // Forgotten once delivered, so the harness's own memory does not grow with the run.
    failedOnce.delete(id);
    send({
      type: 'delivered',
      pid: process.pid,
      correlation_id: result.correlation_id,
      booking_id: result.booking_id,
      status: result.status,
      source: result.source,
      order_id: result.order_id,
      amount: result.amount,
    });
  },
  onError: (error, { route }) => {
    const message = error instanceof Error ? error.message : String(error);
    send({ type: 'error', route, message, injected: /injected:/.test(message) });
  },
});
server.on('request', toNodeListener(handler));

process.on('message', (message: { type: string; id?: number }) => {
  if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    send({ type: 'memory', id: message.id, rss, heapUsed });
  } else if (message.type === 'reconcile') {
    handler
      .reconcile({ olderThanMs: 0, recheckAfterMs: 0, timeBudgetMs: 10_000 })
      .then((report) => send({ type: 'reconciled', id: message.id, report }))
      .catch((error: unknown) => send({ type: 'reconciled', id: message.id, error: String(error) }));
  }
});
send({ type: 'ready', url: `${origin}/api/pay` });
process.on('disconnect', () => process.exit(0));
