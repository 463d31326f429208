/**
 * What the SQL stores (PostgreSQL's and MySQL's) share: their common options, the bookings' columns and
 * the table prefix's rule, and how a row read back becomes a booking or an order's state.
 */
import type { OrderState, StoredBooking } from './store.js';

/** The options both SQL stores take. */
export interface SqlStoreOptions {
  /** Put before every table (and procedure) name, to share a schema. Lower-case letters, digits, `_`. Default `wpb_`. */
  tablePrefix?: string;
  /**
   * Create the tables (and MySQL's procedures) when missing: idempotent, safe from several processes at
   * once. Default `true`; `false` when the merchant runs the store's schema SQL as a migration.
   */
  createTables?: boolean;
  /**
   * Longest a store call may take, in ms (default 5 000): past it the call rejects with
   * {@link StoreUnavailableError} (`deadline`), which the handler answers `IP-503`. The statement may
   * still run on the server: give PostgreSQL's pool a `statement_timeout` of about the same, or MySQL an
   * `innodb_lock_wait_timeout` of a few seconds, to stop it there. Creating or migrating the tables,
   * once, may take six times as long (at least 30 s).
   */
  deadlineMs?: number;
}

/** A booking's columns, in the order every statement reads them. */
export const COLUMNS = 'booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order_ref, order_key, amount, deeplink, provider, provider_data, created_at';

/** The provider of every booking saved before bookings named theirs: eSewa's intent service, the kit's only one then. */
export const PREVIOUS_PROVIDER = 'esewa-intent';

const PREFIX = /^[a-z_][a-z0-9_]{0,30}$/;

/** `prefix`, when it is a prefix of names both databases take unquoted. */
export function checkPrefix(prefix: string): string {
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new TypeError(`tablePrefix must be lower-case letters, digits and "_" (at most 31, not starting with a digit); got ${JSON.stringify(prefix)}.`);
  }
  return prefix;
}

/** A booking from a row of {@link COLUMNS}. */
export function toBooking(row: Record<string, unknown> | undefined): StoredBooking | undefined {
  if (!row) return undefined;
  return {
    booking_id: String(row.booking_id),
    correlation_id: String(row.correlation_id),
    transaction_uuid: String(row.transaction_uuid),
    idempotency_key: String(row.idempotency_key),
    fingerprint: String(row.fingerprint),
    channel: String(row.channel) as StoredBooking['channel'],
    order: JSON.parse(String(row.order_ref)) as StoredBooking['order'],
    order_key: String(row.order_key),
    // Both drivers may hand a bigint back as text, to keep its digits; these are milliseconds, well inside 2^53.
    amount: Number(row.amount),
    deeplink: String(row.deeplink),
    // Rows of the release before these columns carry the column defaults; a NULL is MySQL's provider_data of such a row.
    provider: row.provider == null ? PREVIOUS_PROVIDER : String(row.provider),
    provider_data: row.provider_data == null ? '' : String(row.provider_data),
    created_at: Number(row.created_at),
  };
}

/** A flag as either driver returns it: PostgreSQL's boolean, MySQL's 1 or 0. */
const isSet = (value: unknown) => Number(value) === 1;

/**
 * An order's state from its rows (each of {@link COLUMNS} with `settled` and `paid`): its open bookings,
 * its paid one (one still being delivered before a settled one), what its paid ones add up to, and
 * which of them are still open, so the book counts none twice.
 */
export function orderState(rows: Array<Record<string, unknown>>): OrderState {
  const paid = rows.filter((row) => isSet(row.paid));
  const paidOpen = paid.filter((row) => !isSet(row.settled));
  return {
    open: rows.filter((row) => !isSet(row.settled)).map((row) => toBooking(row)!),
    paid: toBooking(paidOpen[0] ?? paid[0]),
    paidAmount: paid.reduce((sum, row) => sum + Math.round(Number(row.amount) * 100), 0) / 100,
    paidOpen: paidOpen.map((row) => String(row.booking_id)),
  };
}
