/**
 * One merchant server process for the multi-process tests: the payment handler on the PostgreSQL
 * store, served by node:http on 127.0.0.1. It tells its parent its URL and each delivered result over
 * IPC. Settings come from the environment (the parent sets them).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createPaymentHandler } from '../../../../src/server/handler.js';
import { toNodeListener } from '../../../../src/server/node.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`${name} is not set`);
  return value;
};
const send = (message: unknown) => process.send?.(message);

const pool = new pg.Pool({ connectionString: env('DATABASE_URL'), max: 10 });
pool.on('error', (error) => send({ type: 'error', message: String(error) }));
const hookDelayMs = Number(process.env.HOOK_DELAY_MS ?? '0');
const hang = process.env.HOOK_HANG === '1';

const handler = createPaymentHandler({
  serviceUrl: env('SERVICE_URL'),
  productCode: env('PRODUCT_CODE'),
  accessKey: env('ACCESS_KEY'),
  callbackUrl: env('CALLBACK_URL'),
  redirectUrl: 'http://merchant.test/return',
  store: createPostgresStore(pool),
  leaseMs: Number(env('LEASE_MS')),
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
