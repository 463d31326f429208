/**
 * The once-only warning when the handler runs with the in-memory store under NODE_ENV=production.
 * Its own file: the warning is once per process, and node --test runs each file in its own process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createPaymentHandler, type PaymentHandlerOptions } from '../../../../src/server/handler.js';
import { createPostgresStore } from '../../../../src/server/postgres.js';
import { createMemoryStore } from '../../../../src/server/memory-store.js';
import { restoreEnvAfter } from '../../../support/env.js';

const options: Omit<PaymentHandlerOptions, 'store'> = {
  serviceUrl: 'http://127.0.0.1:9',
  productCode: 'WARN01',
  accessKey: 'warn-access-key',
  callbackUrl: 'http://127.0.0.1:9/callback',
  redirectUrl: 'http://127.0.0.1:9/return',
  lookupOrder: () => undefined,
  onPaymentResult: () => {},
};

test('no store is a start-up error naming the choices, never a silent in-memory default', () => {
  assert.throws(
    () => createPaymentHandler(options as PaymentHandlerOptions),
    (error: Error) =>
      error instanceof TypeError &&
      /store is required/.test(error.message) &&
      /createPostgresStore\(new pg\.Pool/.test(error.message) &&
      /PGlite/.test(error.message) &&
      /createMemoryStore\(\).*lost on restart/.test(error.message),
  );
});

test('the memory store under NODE_ENV=production: one warning per process, naming the PostgreSQL store', async (t) => {
  const warnings: string[] = [];
  t.mock.method(console, 'warn', (...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
  restoreEnvAfter(t, 'NODE_ENV');

  // Not production: no warning, and the one warning is still to come.
  delete process.env.NODE_ENV;
  createPaymentHandler({ ...options, store: createMemoryStore() });
  process.env.NODE_ENV = 'development';
  createPaymentHandler({ ...options, store: createMemoryStore() });
  assert.deepEqual(warnings, []);

  // Production with a shared store: nothing to warn of.
  process.env.NODE_ENV = 'production';
  // A pool connects at its first query, which none of this makes.
  const pool = new pg.Pool({ connectionString: 'postgres://127.0.0.1:9/none' });
  t.after(() => pool.end());
  createPaymentHandler({ ...options, store: createPostgresStore(pool) });
  assert.deepEqual(warnings, []);

  // Production with the memory store passed: warned once.
  createPaymentHandler({ ...options, store: createMemoryStore() });
  createPaymentHandler({ ...options, store: createMemoryStore() });
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /in-memory store under NODE_ENV=production/);
  assert.match(warnings[0]!, /createPostgresStore/);
});
