import { createRedisStore } from '../../../../src/server/redis.js';
import { fencedInsertTest } from '../../../support/fenced-insert.js';
import { newClient, redis, stopServer } from './redis-server.js';

// Killed mid-insert under ioredis's default settings: the client keeps the unanswered script and sends it
// again once it reconnects to the restarted server, long after the kit gave up on it.
fencedInsertTest('Redis store, the server killed mid-insert (ioredis defaults)', async () => {
  const server = await redis();
  const store = createRedisStore(await newClient(), { deadlineMs: 1_000 });
  return {
    store,
    halt: () => server.kill(),
    resume: () => server.resume(),
    close: stopServer,
  };
});
