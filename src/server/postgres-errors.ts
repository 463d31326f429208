/**
 * PostgreSQL's words for "the database is not there right now", as node-postgres reports them: the
 * PostgreSQL store's own reading of its driver's errors, exported with the store for a custom store
 * built on node-postgres (the handler reads only {@link StoreUnavailableError}).
 */
import { StoreUnavailableError } from './store-errors.js';

// What a driver reports when the server cannot be reached or dropped the connection, and the server's
// own codes for the same (08: connection exceptions; 57P01-57P03: shut down or starting; 53300: no
// connection slot left).
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
// The server cancelled a statement (statement_timeout) or gave up on a lock (lock_timeout).
const DEADLINE_CODES = new Set(['57014', '55P03']);
const DEADLINE_MESSAGES = /timeout exceeded when trying to connect/i;
const UNREACHABLE_MESSAGES =
  /connection terminated|connection (?:is )?closed|connection ended unexpectedly|terminating connection|not queryable|client has encountered a connection error|cannot use a pool after calling end/i;

/** The {@link StoreUnavailableError} for a driver's error that means "late" or "gone"; undefined for any other. */
export function postgresOutage(error: unknown): StoreUnavailableError | undefined {
  if (error instanceof StoreUnavailableError) return error;
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const text = error.message;
  if ((typeof code === 'string' && DEADLINE_CODES.has(code)) || DEADLINE_MESSAGES.test(text)) {
    return new StoreUnavailableError('deadline', `The payment store's database gave up on a statement: ${text}`, { cause: error });
  }
  if ((typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) || UNREACHABLE_MESSAGES.test(text)) {
    return new StoreUnavailableError('unreachable', `The payment store's database cannot be reached: ${text}`, { cause: error });
  }
  return undefined;
}

// Another process creating the same table or index at the same moment: the catalogue's unique index
// refuses the loser (23505) or the object exists by then (42P07, 42710), or is gone by then (42704, a
// drop). Running the batch again settles it.
const CREATE_RACE = new Set(['23505', '42P07', '42710', '42704']);

/**
 * After the set-up's `attempt`-th try failed with `error`: resolves when the batch is to run again,
 * else throws. Another process's set-up at the same moment is run again at once (CREATE_RACE). A
 * process that starts while others already book may deadlock with their statements (an ALTER TABLE
 * that finds its column there still locks the table), and the database ends one as the victim
 * (40P01): run again after a short wait, and past five tries an outage, never a raw driver error.
 */
export async function setUpRetry(error: unknown, attempt: number): Promise<void> {
  const code = (error as { code?: unknown }).code;
  const deadlock = code === '40P01';
  if (attempt >= 5 || typeof code !== 'string' || !(CREATE_RACE.has(code) || deadlock)) {
    throw deadlock ? new StoreUnavailableError('deadline', `The payment store's set-up kept meeting a deadlock: ${(error as Error).message}`, { cause: error }) : error;
  }
  if (deadlock) await new Promise((resolve) => setTimeout(resolve, attempt * 20 + Math.random() * 40));
}
