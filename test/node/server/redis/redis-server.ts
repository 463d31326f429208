/**
 * A real Redis server for the tests: one per test file, started on first use and stopped at the end
 * (see scripts/redis.mjs), with the durable settings (append-only file fsynced on every write).
 */
import { Redis, type RedisOptions } from 'ioredis';
import { startRedis, type ThrowawayRedis } from '../../../../scripts/redis.mjs';

let server: Promise<ThrowawayRedis> | undefined;
const clients: Redis[] = [];

/** The shared throwaway server, started on first use. */
export function redis(): Promise<ThrowawayRedis> {
  server ??= startRedis();
  return server;
}

/** A client of the shared server, closed by {@link stopServer}. */
export async function newClient(options: RedisOptions = {}): Promise<Redis> {
  const { url } = await redis();
  const client = new Redis(url, { lazyConnect: false, ...options });
  // A client whose server stops emits 'error' while it reconnects; the commands report it.
  client.on('error', () => {});
  clients.push(client);
  return client;
}

/** Closes the clients and stops the server, if one was started. */
export async function stopServer(): Promise<void> {
  for (const client of clients.splice(0)) client.disconnect();
  if (server) await (await server).stop();
  server = undefined;
}
