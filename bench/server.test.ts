/**
 * The server bench on real parts with the fewest samples: a row per provider, in order, every booking
 * made. Shapes and counts only: speed is measured by the bench, never asserted here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCH_PROVIDERS } from './merchant.js';
import { benchServer, type ServerBenchOptions } from './server.js';

const TINY: ServerBenchOptions = { signaturesPerRound: 5, latencyPairsPerRound: 4, concurrentClients: 3, bookingsPerClient: 2, warmupRounds: 1, rounds: 2, throughputRounds: 1 };

test('benchServer measures each provider through its own handler on one sandbox: a row each, every booking made', { timeout: 60_000 }, async () => {
  const results = await benchServer(TINY);
  assert.equal(results.signaturesPerSecond.n, TINY.rounds);
  assert.equal(results.concurrentClients, TINY.concurrentClients);
  assert.deepEqual(results.providers.map((row) => row.provider), [...BENCH_PROVIDERS]);
  for (const row of results.providers) {
    assert.equal(row.bookingErrors, 0, `${row.provider}: no failed booking`);
    // The warm-up round books too, and its bookings count as attempted.
    assert.equal(row.bookingsAttempted, TINY.concurrentClients * TINY.bookingsPerClient * (TINY.warmupRounds + TINY.throughputRounds), row.provider);
    for (const summary of [row.addedP50Ms, row.addedP99Ms, row.directP50Ms, row.handlerP50Ms]) assert.equal(summary.n, TINY.rounds, row.provider);
    assert.equal(row.bookingsPerSecond.n, TINY.throughputRounds, row.provider);
    assert.ok(row.bookingsPerSecond.median > 0 && row.handlerP50Ms.median > 0, `${row.provider}: figures were taken`);
  }
});

test('benchServer measures only the providers it is given', { timeout: 60_000 }, async () => {
  const results = await benchServer(TINY, ['khalti']);
  assert.deepEqual(results.providers.map((row) => row.provider), ['khalti']);
});
