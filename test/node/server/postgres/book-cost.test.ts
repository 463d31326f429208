/**
 * What a book reads does not grow with the order's past attempts: the order's state that starts a
 * book holds its open and paid bookings, not every booking the order ever had. Measured as the bytes
 * the database answers to that statement, on a real PostgreSQL server, with the real handler in front
 * of the real sandbox.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { createPaymentHandler, type PaymentHandler } from '../../../../src/server/handler.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import type { PaymentStore } from '../../../../src/server/store.js';
import { freshDatabase, stopServer } from './pg-server.js';

const KEY = 'book-cost-access-key';
const PRODUCT = 'COST01';

describe('the cost of a book and the order\'s past bookings', () => {
  let sandbox: Sandbox;
  let pool: pg.Pool;
  /** Bytes of the last answer to the statement that starts a book. */
  let answered = 0;

  before(async () => {
    sandbox = await startSandbox({ accessKey: KEY, productCode: PRODUCT });
    pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
    pool.on('error', () => {});
  });
  after(async () => {
    await pool?.end();
    await sandbox?.close();
    await stopServer();
  });

  const handlerOn = (store: PaymentStore): PaymentHandler =>
    createPaymentHandler({
      serviceUrl: sandbox.baseUrl,
      productCode: PRODUCT,
      accessKey: KEY,
      callbackUrl: 'http://127.0.0.1:9/callback',
      redirectUrl: 'http://merchant.test/return',
      store,
      lookupOrder: (order) => ({ id: String(order.id), amount: 250 }),
      onPaymentResult: () => undefined,
    });

  /** A book of `order` under a new key (each closes the order's open booking: one more past attempt). */
  const book = async (handler: PaymentHandler, order: string) => {
    const response = await handler(
      new Request('http://merchant.test/api/pay/book', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `cost-${crypto.randomUUID()}` },
        body: JSON.stringify({ channel: 'app', order: { id: order } }),
      }),
    );
    assert.equal(response.status, 200, await response.clone().text());
  };

  test('PostgreSQL: the order state a book reads is the same size after 3 past attempts and after 40', async () => {
    const store = createPostgresStore({
      query: async (text: string, params?: unknown[]) => {
        const result = await pool.query(text, params);
        if (text.includes('begin_booking')) answered = JSON.stringify(result.rows).length;
        return result;
      },
    });
    const handler = handlerOn(store);
    for (let i = 0; i < 3; i++) await book(handler, 'COST-PG');
    const early = answered;
    for (let i = 0; i < 37; i++) await book(handler, 'COST-PG');
    assert.ok(answered <= early + 16, `the book's first statement answered ${early} bytes after 3 attempts, ${answered} after 40`);
  });
});
