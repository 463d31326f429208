import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRedisStore, REDIS_DATA_VERSION } from '../../../../src/server/redis.js';
import { sampleBooking as booking, storeSuite } from '../../../../src/server/store-suite.js';
import { newClient, stopServer } from './redis-server.js';
import { findRedis, redisVersion } from '../../../../scripts/redis.mjs';

after(stopServer);

describe('Redis store on a Redis 7 server (ioredis)', () => {
  let prefix = 0;
  storeSuite('Redis 7', async () => createRedisStore(await newClient(), { keyPrefix: `{c${++prefix}}:` }), { test, assert });

  test('scripts are loaded at start, and sent whole once the server forgot them (SCRIPT FLUSH, as after a restart)', async () => {
    const client = await newClient();
    const store = createRedisStore(client, { keyPrefix: '{flush}:' });
    assert.equal(await store.insertBooking({ booking: booking(1) }), 'saved');
    await client.script('FLUSH');
    assert.deepEqual((await store.getBookingByKey({ key: 'key-1' }))?.booking_id, 'bk-1');
    assert.equal(await store.insertBooking({ booking: booking(1) }), 'taken');
  });

  test('keeps text byte for byte: a Nepali order and a long order key come back whole, one lease per name', async () => {
    const store = createRedisStore(await newClient(), { keyPrefix: '{text}:' });
    const order = { id: 'नेपाल-१', note: 'चिया 🍵', lines: [{ sku: 'Ä', qty: 1 }] };
    await store.insertBooking({ booking: booking(1, { order, order_key: JSON.stringify(order) }) });
    assert.deepEqual((await store.getBookingByKey({ key: 'key-1' }))?.order, order);
    assert.deepEqual((await store.getOrderState({ orderKey: JSON.stringify(order) })).open.map((b) => b.booking_id), ['bk-1']);
    const long = 'x'.repeat(5_000);
    assert.equal((await store.beginBooking({ key: 'key-long', orderKey: long, lease: `order:${long}`, owner: 'a', leaseMs: 60_000 })).status, 'leased');
    assert.deepEqual(await store.beginBooking({ key: 'key-long2', orderKey: long, lease: `order:${long}`, owner: 'b', leaseMs: 60_000 }), { status: 'busy' });
  });

  test('writes its data version and refuses a newer one; refuses a prefix without a hash tag or a client without scripts', async () => {
    const client = await newClient();
    await createRedisStore(client, { keyPrefix: '{ver}:' }).ready();
    assert.equal(await client.hget('{ver}:meta', 'version'), String(REDIS_DATA_VERSION));
    await client.hset('{ver}:meta', 'version', String(REDIS_DATA_VERSION + 1));
    await assert.rejects(createRedisStore(client, { keyPrefix: '{ver}:' }).ready(), new RegExp(`data version ${REDIS_DATA_VERSION + 1}; this code reads version ${REDIS_DATA_VERSION}\\.$`));
    assert.throws(() => createRedisStore(client, { keyPrefix: 'wpb:' }), /keyPrefix must hold a hash tag/);
    assert.throws(() => createRedisStore({} as never), /needs an ioredis/);
  });

  test('imports no database driver (ioredis is an optional peer dependency, never a dependency)', async () => {
    const source = await readFile(new URL('../../../../src/server/redis.ts', import.meta.url), 'utf8');
    assert.doesNotMatch(source, /from\s+'(?:mysql2|ioredis|iovalkey)(?:\/[^']*)?'/);
    const manifest = JSON.parse(await readFile(new URL('../../../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
    assert.equal(manifest.dependencies?.['ioredis'], undefined);
    assert.deepEqual(manifest.peerDependenciesMeta?.['ioredis'], { optional: true });
  });
  test('finds Redis where $REDIS_SERVER says, and names the fix when it is not there', () => {
    const saved = process.env.REDIS_SERVER;
    try {
      process.env.REDIS_SERVER = '/nonexistent/redis-server';
      assert.throws(() => findRedis(), /REDIS_SERVER is set to \/nonexistent\/redis-server, but there is no such file/);
      delete process.env.REDIS_SERVER;
      const found = findRedis();
      assert.ok(found, 'this machine has Redis (npm test installs it)');
      assert.match(redisVersion(found), /server v=\d/);
    } finally {
      if (saved === undefined) delete process.env.REDIS_SERVER;
      else process.env.REDIS_SERVER = saved;
    }
  });
});
