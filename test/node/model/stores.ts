/**
 * The MySQL (MariaDB) and Redis backends of the generated interleavings, each on a throwaway server.
 * Both stores time leases and claims by their server's clock, so the world's shifts move that clock:
 * MariaDB's session `timestamp` (what `UTC_TIMESTAMP()` answers) is set before each statement, and
 * the Redis scripts' `TIME` gets the shift a key of the store holds. Nothing else of the stores is
 * touched: every statement and script is theirs.
 */
import type { Redis } from 'ioredis';
import { createMysqlStore, type MysqlQueryable } from '../../../src/server/mysql.js';
import { createRedisStore, type RedisScripting } from '../../../src/server/redis.js';
import { freshDatabase, newPool, stopServer as stopMariadb } from '../server/mysql/mariadb-server.js';
import { newClient, stopServer as stopRedis } from '../server/redis/redis-server.js';
import type { Backend } from './backends.js';

/** One MariaDB database; each sequence starts from emptied tables, as on PostgreSQL. */
export async function mysqlBackend(): Promise<Backend> {
  const pool = newPool(await freshDatabase());
  let shift = 0;
  // Each statement runs on a connection whose clock is the world's: the server's time plus the shift.
  const shifted: MysqlQueryable = {
    query: (async (sql: string, values?: unknown[]) => {
      const connection = await pool.getConnection();
      try {
        await connection.query('SET timestamp = ?', [(Date.now() + shift) / 1000]);
        return await connection.query(sql, values);
      } finally {
        connection.release();
      }
    }) as MysqlQueryable['query'],
  };
  const store = createMysqlStore(shifted);
  await store.ready();
  const [rows] = await pool.query("SHOW TABLES LIKE 'wpb\\_%'");
  const tables = (rows as Array<Record<string, string>>).map((row) => Object.values(row)[0]!).filter((name) => name !== 'wpb_meta');
  return {
    name: 'mysql',
    fresh: async () => {
      shift = 0;
      for (const table of tables) await pool.query(`DELETE FROM ${table}`);
      return store;
    },
    shift: async (ms) => {
      shift = ms;
    },
    close: async () => {
      await pool.end();
      await stopMariadb();
    },
  };
}

/** The scripts' clock, shifted by the store's `shift` key (KEYS[1] is the store's prefix). */
const SERVER_MS = 'return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)';
const SHIFTED_MS = `${SERVER_MS} + tonumber(redis.call('GET', P .. 'model-shift') or '0')`;

/** Every script the store sends, with its clock shifted; its SHA is then the shifted script's. */
function shiftedScripts(client: Redis): RedisScripting {
  const shifted = (text: string) => {
    if (!text.includes(SERVER_MS)) throw new Error("The Redis store's scripts no longer read TIME as the model expects: update SERVER_MS.");
    return text.replace(SERVER_MS, SHIFTED_MS);
  };
  return {
    evalsha: (...args: Parameters<RedisScripting['evalsha']>) => client.evalsha(...args),
    eval: (text: string, ...rest: unknown[]) => (client.eval as (...a: unknown[]) => Promise<unknown>)(shifted(text), ...rest),
    script: (subcommand: 'LOAD', text: string) => client.script(subcommand, shifted(text)),
  } as RedisScripting;
}

/** One Redis server; each sequence a store of its own key prefix. */
export async function redisBackend(): Promise<Backend> {
  const client = await newClient();
  let prefix = '';
  let runs = 0;
  return {
    name: 'redis',
    fresh: async () => {
      prefix = `{model-${++runs}}:`;
      const store = createRedisStore(shiftedScripts(client), { keyPrefix: prefix });
      await store.ready();
      return store;
    },
    shift: async (ms) => {
      await client.set(`${prefix}model-shift`, String(ms));
    },
    close: async () => {
      await stopRedis();
    },
  };
}
