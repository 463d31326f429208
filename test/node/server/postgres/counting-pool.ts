/**
 * A node-postgres Pool that counts what it is asked to do: every `query` (a statement the server
 * answers) and every `connect` (a client taken for a transaction or a session). Each is at least one
 * round trip to the server, so their sum is the number of round trips a store call costs.
 */
import pg from 'pg';

/** A real pg Pool with a count of every query and connect made through it. */
export interface CountingPool {
  /** What the store is given: query and connect pass through to the real Pool, counted. */
  db: { query: pg.Pool['query']; connect: pg.Pool['connect'] };
  pool: pg.Pool;
  /** Round trips so far: queries through `db` and through clients it handed out, plus connects. */
  readonly count: number;
  /** The statements counted so far, in order (for a failure message). */
  readonly statements: string[];
  reset(): void;
}

export function countingPool(config: pg.PoolConfig): CountingPool {
  const pool = new pg.Pool(config);
  // An idle client told of the server's shutdown emits 'error' on the pool (node-postgres' docs: handle it).
  pool.on('error', () => {});
  let statements: string[] = [];
  // A pooled client comes back on a later connect: count its queries through one wrapper only.
  const counted = new WeakSet<pg.PoolClient>();
  const note = (text: unknown) => statements.push(typeof text === 'string' ? text.replace(/\s+/g, ' ').slice(0, 80) : String((text as { text?: string }).text));
  const db = {
    query: ((text: unknown, ...rest: unknown[]) => {
      note(text);
      return (pool.query as (...args: unknown[]) => unknown)(text, ...rest);
    }) as pg.Pool['query'],
    connect: (async () => {
      note('connect');
      const client = await pool.connect();
      if (!counted.has(client)) {
        counted.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
          note(text);
          return query(text, ...rest);
        };
      }
      return client;
    }) as pg.Pool['connect'],
  };
  return {
    db,
    pool,
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
