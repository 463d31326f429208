/**
 * Every call of the Redis store has a deadline: a server that is late (busy with another client's
 * long script) or gone (stopped) makes the call fail with StoreUnavailableError within its time, not
 * hang; once the server is back, the store works again. On a throwaway Redis server of this file's own.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis, type RedisOptions } from 'ioredis';
import { startRedis, type ThrowawayRedis } from '../../../../scripts/redis.mjs';
import { createRedisStore } from '../../../../src/server/redis.js';
import { sampleBooking as booking } from '../../../../src/server/store-suite.js';
import { unavailable } from '../../../support/store-deadlines.js';

describe('Redis store: deadlines and an unreachable server', () => {
  let server: ThrowawayRedis;
  const clients: Redis[] = [];
  const newClient = (options: RedisOptions = {}) => {
    const client = new Redis(server.url, options);
    client.on('error', () => {});
    clients.push(client);
    return client;
  };

  before(async () => {
    server = await startRedis();
  });
  after(async () => {
    for (const client of clients) client.disconnect();
    await server?.stop();
  });

  test('the server busy with a 1.2 s script of another client: every kind of call fails with reason "deadline" at the deadline, and works after', async () => {
    const store = createRedisStore(newClient(), { keyPrefix: '{busy}:', deadlineMs: 300 });
    await store.insertBooking({ booking: booking(1) });
    const blocker = newClient();
    // Connected before its script is sent, so the script runs before the call it is meant to hold up
    // (a client still connecting on a loaded machine sent it after the call, which then succeeded).
    await blocker.ping();
    const calls: Array<() => Promise<unknown>> = [
      () => store.beginBooking({ key: 'key-2', orderKey: 'o', lease: 'order:o', owner: 'a', leaseMs: 2 }),
      () => store.claimResult({ correlationId: 'cr-1', status: 'SUCCESS', owner: 'a', leaseMs: 2 }),
    ];
    for (const call of calls) {
      // A script that spins for 1.2 s: Redis runs one command at a time, so every other client waits.
      const blocking = blocker.eval(`local t = redis.call('TIME') local s = t[1] * 1e6 + t[2]
        repeat local n = redis.call('TIME') until n[1] * 1e6 + n[2] - s > 1200000 return 1`, 0);
      let blocked = true;
      void blocking.then(() => (blocked = false));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const tookMs = await unavailable(call, 'deadline');
      assert.ok(tookMs >= 250, `failed after ${tookMs} ms, before its deadline`);
      assert.ok(blocked, 'failed at its deadline, while the server was still busy, not when it answered');
      await blocking;
    }
    assert.equal((await store.getBookingByKey({ key: 'key-1' }))?.booking_id, 'bk-1', 'works again');
  });

  test('the server stopped: calls fail within the deadline (at once with a client that does not queue offline); started again, the same store works', async () => {
    const queuing = createRedisStore(newClient(), { keyPrefix: '{down}:', deadlineMs: 1_000 });
    const failFast = createRedisStore(newClient({ enableOfflineQueue: false, maxRetriesPerRequest: 0 }), { keyPrefix: '{down}:', deadlineMs: 3_000 });
    await queuing.insertBooking({ booking: booking(1) });
    await failFast.ready();
    await server.pause();
    try {
      const queued = await unavailable(() => queuing.getBookingByKey({ key: 'key-1' }), 'deadline', 'unreachable');
      assert.ok(queued < 2_000, `failed after ${queued} ms`);
      const fast = await unavailable(() => failFast.beginBooking({ key: 'key-2', orderKey: 'o', lease: 'order:o', owner: 'a', leaseMs: 2 }), 'unreachable');
      assert.ok(fast < 1_000, `failed after ${fast} ms`);
    } finally {
      await server.resume();
    }
    const deadline = Date.now() + 10_000;
    let found;
    while (!found && Date.now() < deadline) {
      found = await queuing.getBookingByKey({ key: 'key-1' }).catch(() => undefined);
      if (!found) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.equal(found?.booking_id, 'bk-1', 'the same store works once the client reconnected (within 10 s)');
  });

  test('refuses a deadline that makes no sense', () => {
    assert.throws(() => createRedisStore(newClient(), { deadlineMs: -1 }), /deadlineMs must be a positive number/);
  });
});
