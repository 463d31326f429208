/**
 * The MySQL store's connection: the schema created (or migrated) once, each statement run under the
 * deadline, a driver's answer read as result sets, and its errors that mean "late" or "gone" told
 * apart as {@link StoreUnavailableError}.
 */
import { MYSQL_SCHEMA_VERSION, mysqlSchema } from './mysql-schema.js';
import { retryingDeadlocks, withinDeadline } from './store-deadline.js';
import { schemaVersionError, setUpOnce } from './store-setup.js';
import { StoreUnavailableError } from './store-errors.js';

/** What the store needs of a database client: a `mysql2/promise` pool (or connection) fits. */
export interface MysqlQueryable {
  query(sql: string, values?: unknown[]): Promise<[unknown, unknown]>;
}

/** MySQL's "procedure already exists": another process created it first, or an earlier start did. */
const ER_SP_ALREADY_EXISTS = 1304;
/** MySQL's "duplicate column name": the columns a migration adds are there (a new table has them, or another process added them). */
const ER_DUP_FIELDNAME = 1060;
/** InnoDB's deadlock victim: its transaction was rolled back whole, so running it again is safe. */
const ER_LOCK_DEADLOCK = 1213;

/** A driver's error number (`errno`), if any. */
const errnoOf = (error: unknown): number | undefined => {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' ? errno : undefined;
};

/** What the store's methods run on: the set-up once, then each statement under the deadline. */
export interface Connection {
  /** Creates or checks the schema (once), under its longer deadline. */
  ready(): Promise<void>;
  /** One statement (or CALL), under the deadline; its result sets, each a list of rows. */
  run(sql: string, values: unknown[]): Promise<Array<Array<Record<string, unknown>>>>;
}

/** The connection of a store on `pool` with table prefix `p`. */
export function connect(pool: MysqlQueryable, p: string, createTables: boolean, deadlineMs: number): Connection {
  const setUpDeadlineMs = Math.max(6 * deadlineMs, 30_000);

  /** One query; a pool of mysql2's callback API answers a query object (an event emitter), not a promise, and is refused in words. */
  function ask(sql: string, values?: unknown[]): Promise<[unknown, unknown]> {
    const answer = pool.query(sql, values) as { then?: unknown; on?: unknown } | null;
    if (typeof answer?.then !== 'function' || typeof answer.on === 'function') {
      throw new TypeError("createMysqlStore needs a promise pool: createPool of 'mysql2/promise', or pool.promise() of a callback pool.");
    }
    return answer as Promise<[unknown, unknown]>;
  }

  async function version(): Promise<number | undefined> {
    const [rows] = await ask(`SELECT version FROM ${p}meta WHERE name = 'schema'`);
    const row = (rows as Array<Record<string, unknown>>)[0];
    return row ? Number(row.version) : undefined;
  }

  async function prepare(): Promise<void> {
    if (createTables) {
      const [meta, ...rest] = mysqlSchema(p);
      await ask(meta!);
      const found = await version();
      // A database that a newer version of this code migrated is left untouched (and refused below).
      if (found === undefined || found <= MYSQL_SCHEMA_VERSION) {
        for (const statement of rest) {
          try {
            await ask(statement);
          } catch (error) {
            const errno = errnoOf(error);
            if (errno !== ER_SP_ALREADY_EXISTS && errno !== ER_DUP_FIELDNAME) throw error;
          }
        }
      }
    }
    const refused = schemaVersionError(p, await version(), MYSQL_SCHEMA_VERSION, 'mysqlSchema');
    if (refused) throw refused;
  }
  const setUp = setUpOnce(prepare);

  async function run(sql: string, values: unknown[]): Promise<Array<Array<Record<string, unknown>>>> {
    if (!setUp.done) await withinDeadline(setUp.ready, setUpDeadlineMs, unavailable);
    return withinDeadline(async () => {
      const [result] = await retryingDeadlocks(() => ask(sql, values), (error) => errnoOf(error) === ER_LOCK_DEADLOCK);
      return resultSets(result);
    }, deadlineMs, unavailable);
  }

  return { ready: () => withinDeadline(setUp.ready, setUpDeadlineMs, unavailable), run };
}

/** A driver's answer as result sets: one for a plain SELECT, one per SELECT of a CALL; none for a write. */
function resultSets(result: unknown): Array<Array<Record<string, unknown>>> {
  if (!Array.isArray(result)) return [];
  // A CALL answers its SELECTs' result sets, then a status header; a SELECT answers its rows.
  if (result.length > 0 && result.every((item) => Array.isArray(item) || !isRow(item)) && result.some(Array.isArray)) {
    return result.filter(Array.isArray) as Array<Array<Record<string, unknown>>>;
  }
  return [result as Array<Record<string, unknown>>];
}

/** A row, as opposed to a write's status header (`ResultSetHeader`, with `affectedRows`). */
const isRow = (item: unknown): boolean => typeof item === 'object' && item !== null && !('affectedRows' in item && 'fieldCount' in item);

// What mysql2 reports when the server cannot be reached or dropped the connection.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST', 'PROTOCOL_ENQUEUE_AFTER_FATAL_ERROR', 'PROTOCOL_ENQUEUE_AFTER_QUIT', 'PROTOCOL_SEQUENCE_TIMEOUT',
]);
// The server's own numbers for the same: 1040 too many connections, 1053 shutting down, 1927
// connection killed (MariaDB), 2002/2003/2006/2013 the client's "cannot connect" and "gone away".
const UNREACHABLE_ERRNOS = new Set([1040, 1053, 1927, 2002, 2003, 2006, 2013]);
// A lock wait or a statement past the server's own limit (1205 lock wait timeout, 1317 interrupted,
// 3024 MySQL's max_execution_time, 1969 MariaDB's max_statement_time).
const DEADLINE_ERRNOS = new Set([1205, 1317, 3024, 1969]);

/** The {@link StoreUnavailableError} for a driver's error that means "late" or "gone"; undefined for any other. */
function unavailable(error: unknown): StoreUnavailableError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const errno = errnoOf(error);
  if (errno !== undefined && DEADLINE_ERRNOS.has(errno)) {
    return new StoreUnavailableError('deadline', `The payment store's database gave up on a statement: ${error.message}`, { cause: error });
  }
  if ((typeof code === 'string' && UNREACHABLE_CODES.has(code)) || (errno !== undefined && UNREACHABLE_ERRNOS.has(errno)) || /connection is in closed state|connection lost|server has gone away/i.test(error.message)) {
    return new StoreUnavailableError('unreachable', `The payment store's database cannot be reached: ${error.message}`, { cause: error });
  }
  return undefined;
}
