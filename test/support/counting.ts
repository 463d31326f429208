/**
 * Clients that count what the stores ask of their server: every query and connect of a node-postgres
 * Pool, every query or CALL of a mysql2 pool, every EVALSHA, EVAL or SCRIPT of a Redis client. Each
 * is at least one round trip to the server.
 */
import type pg from 'pg';
import type { MysqlQueryable } from '../../src/server/mysql.js';
import type { RedisScripting } from '../../src/server/redis.js';

/** A counter of round trips, with what each was (for a failure message). */
export interface Counting<T> {
  /** What the store is given: the real client's calls, counted. */
  db: T;
  readonly count: number;
  readonly statements: string[];
  reset(): void;
}

function counter<T>(wrap: (note: (text: string) => void) => T): Counting<T> {
  let statements: string[] = [];
  const db = wrap((text) => statements.push(text.replace(/\s+/g, ' ').slice(0, 80)));
  return {
    db,
    get count() {
      return statements.length;
    },
    get statements() {
      return [...statements];
    },
    reset() {
      statements = [];
    },
  };
}

/** What the PostgreSQL store is given of a node-postgres Pool. */
type PgQueryable = { query: pg.Pool['query']; connect: pg.Pool['connect'] };

/**
 * Counts every `query` and `connect` of a node-postgres Pool, and the queries of the clients it hands
 * out (a prepared statement by its text).
 */
export function countingPostgres(pool: pg.Pool): Counting<PgQueryable> {
  // A pooled client comes back on a later connect: count its queries through one wrapper only.
  const counted = new WeakSet<pg.PoolClient>();
  const textOf = (text: unknown) => (typeof text === 'string' ? text : String((text as { text?: string }).text));
  return counter((note) => ({
    query: ((text: unknown, ...rest: unknown[]) => {
      note(textOf(text));
      return (pool.query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as pg.Pool['query'],
    connect: (async () => {
      note('connect');
      const client = await pool.connect();
      if (!counted.has(client)) {
        counted.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
          note(textOf(text));
          return query(text, ...rest);
        };
      }
      return client;
    }) as pg.Pool['connect'],
  }));
}

/** Counts every `query` of a mysql2/promise pool. */
export function countingMysql(pool: MysqlQueryable): Counting<MysqlQueryable> {
  return counter((note) => ({
    query(sql: string, values?: unknown[]) {
      note(sql);
      return pool.query(sql, values);
    },
  }));
}

/** Counts every `evalsha`, `eval` and `script` of an ioredis client. */
export function countingRedis(client: RedisScripting): Counting<RedisScripting> {
  return counter((note) => ({
    evalsha(sha1: string, keys: number, ...args: Array<string | number>) {
      note(`EVALSHA ${sha1.slice(0, 8)} ${String(args[1] ?? '').slice(0, 40)}`);
      return client.evalsha(sha1, keys, ...args);
    },
    eval(script: string, keys: number, ...args: Array<string | number>) {
      note(`EVAL ${String(args[1] ?? '').slice(0, 40)}`);
      return client.eval(script, keys, ...args);
    },
    script(subcommand: 'LOAD', script: string) {
      note(`SCRIPT ${subcommand}`);
      return client.script(subcommand, script);
    },
  }));
}
