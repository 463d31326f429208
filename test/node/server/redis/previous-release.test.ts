/**
 * The Redis store opens the keys of the previous release (test/fixtures/previous-release): its
 * bookings read as eSewa's intent service's and work beside new ones of another provider.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedisStore, REDIS_DATA_VERSION } from '../../../../src/server/redis.js';
import { checkPreviousRelease, loadRedis, previousRedis } from '../../../fixtures/previous-release/index.js';
import { newClient, stopServer } from './redis-server.js';

after(stopServer);

test("opens the previous release's keys (data version 1) from several processes at once, and reads and works its bookings", async () => {
  const client = await newClient();
  await loadRedis(client);
  assert.ok(previousRedis.version < REDIS_DATA_VERSION, `the fixture is of an earlier layout: ${previousRedis.version}`);
  assert.equal(await client.hget('{wpb}:meta', 'version'), String(previousRedis.version));
  await checkPreviousRelease(previousRedis, () => createRedisStore(client));
  assert.equal(await client.hget('{wpb}:meta', 'version'), String(REDIS_DATA_VERSION));
});
