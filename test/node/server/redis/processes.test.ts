/**
 * The Redis store across processes and faults, on a real Redis server of this file's own
 * (scripts/redis.mjs) with the durable settings (appendonly yes, appendfsync always): the tests of
 * fleet.ts, and a SIGKILL of the Redis server under load.
 */
import { Redis } from 'ioredis';
import { startRedis, type ThrowawayRedis } from '../../../../scripts/redis.mjs';
import { createRedisStore } from '../../../../src/server/redis.js';
import { fleetTests } from '../mysql/fleet.js';

let server: ThrowawayRedis | undefined;
let client: Redis | undefined;

fleetTests('Redis store', {
  store: 'redis',
  async start() {
    server = await startRedis();
    return server.url;
  },
  async reader() {
    client = new Redis(server!.url);
    client.on('error', () => {});
    return createRedisStore(client);
  },
  async killConnections() {
    // Redis runs one command at a time: a connection is killed between two commands, never inside one.
    return Number(await client!.call('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes'));
  },
  pause: () => server!.pause(),
  kill: () => server!.kill(),
  resume: () => server!.resume(),
  async stop() {
    client?.disconnect();
    await server?.stop();
  },
});
