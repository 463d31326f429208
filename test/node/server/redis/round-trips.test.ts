import { createRedisStore } from '../../../../src/server/redis.js';
import { countingRedis } from '../mysql/counting.js';
import { roundTripTests } from '../mysql/round-trips.js';
import { newClient, stopServer } from './redis-server.js';

roundTripTests('Redis store', async () => {
  const counting = countingRedis(await newClient());
  return { store: createRedisStore(counting.db), counting, close: stopServer };
});
