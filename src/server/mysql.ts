/**
 * `wallet-pay-button/server/mysql`: a {@link PaymentStore} on MySQL 8 or MariaDB 10.11, shared by any
 * number of handler processes. It needs only `query(sql, values)` as `mysql2/promise` answers it, so a
 * `mysql2/promise` pool serves; `mysql2` is not a dependency of this package.
 *
 * Every step that must be atomic and answered in one round trip is a stored procedure (created with
 * the tables), run as one `CALL`.
 */
import type { PaymentStatus } from '../protocol/contract.js';
import { connect, type MysqlQueryable } from './mysql-connection.js';
import { PROCEDURES, paidSql } from './mysql-schema.js';
import { COLUMNS, checkPrefix, orderState, toBooking, type SqlStoreOptions } from './sql-rows.js';
import { checkDeadline } from './store-deadline.js';
import type { BookingInsertion, BookingOpening, KnownResult, PaymentStore, ResultClaim, ResultClaimAnswer } from './store.js';

export type { MysqlQueryable } from './mysql-connection.js';
export { MYSQL_SCHEMA_VERSION, mysqlSchema } from './mysql-schema.js';

/** Options of {@link createMysqlStore}: those of every SQL store. */
export type MysqlStoreOptions = SqlStoreOptions;

/** A {@link PaymentStore} on MySQL or MariaDB, with {@link ready} to create (or check) its tables ahead of the first request. */
export interface MysqlStore extends PaymentStore {
  /** Creates the tables and procedures when missing and checks the schema version. Every method awaits it first. */
  ready(): Promise<void>;
}

/**
 * Creates a MySQL- or MariaDB-backed {@link PaymentStore}:
 * `createMysqlStore(mysql.createPool({ uri, connectionLimit: 10 }))` with `mysql2/promise`. The tables
 * and procedures are created on first use (see {@link mysqlSchema}); a database whose schema is newer
 * than this code is refused.
 */
export function createMysqlStore(pool: MysqlQueryable, options: MysqlStoreOptions = {}): MysqlStore {
  if (!pool || typeof pool.query !== 'function') throw new TypeError('createMysqlStore needs a mysql2/promise pool (or connection): an object with query(sql, values).');
  const p = checkPrefix(options.tablePrefix ?? 'wpb_');
  const { ready, run } = connect(pool, p, options.createTables ?? true, checkDeadline(options.deadlineMs ?? 5_000));
  const rowsOf = async (sql: string, values: unknown[]) => (await run(sql, values))[0] ?? [];
  const call = (procedure: string, values: unknown[]) => run(`CALL ${p}${procedure}(${values.map(() => '?').join(', ')})`, values);
  const one = async (where: string, value: string) => toBooking((await rowsOf(`SELECT ${COLUMNS} FROM ${p}bookings WHERE ${where} = ?`, [value]))[0]);

  return {
    ready,
    getBookingByKey: ({ key }) => one('idempotency_key', key),
    findBookingByCorrelationId: ({ correlationId }) => one('correlation_id', correlationId),
    async insertBooking({ booking: b, hold }): Promise<BookingInsertion> {
      const [rows] = await call(PROCEDURES.insertBooking, [
        b.booking_id, b.correlation_id, b.transaction_uuid, b.idempotency_key, b.fingerprint, b.channel,
        JSON.stringify(b.order), b.order_key, b.amount, b.deeplink, b.provider, b.provider_data, hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null,
      ]);
      return rows?.[0]?.outcome as BookingInsertion;
    },
    async beginBooking({ key, orderKey, lease, owner, leaseMs }): Promise<BookingOpening> {
      const [head, bookings = []] = await call(PROCEDURES.beginBooking, [key, orderKey, lease, owner, Math.ceil(leaseMs)]);
      const status = head?.[0]?.status;
      if (status === 'busy') return { status: 'busy' };
      if (status === 'booked' && bookings[0]) return { status: 'booked', booking: toBooking(bookings[0])! };
      if (status !== 'leased') throw new Error(`The payment store's begin_booking answered ${String(status)}.`);
      return {
        status: 'leased',
        token: Number(head![0]!.token),
        order: orderState(bookings),
      };
    },
    async acquireLease({ lease, owner, leaseMs }) {
      const [rows] = await call('acquire_lease', [lease, owner, Math.ceil(leaseMs)]);
      const token = Number(rows?.[0]?.token);
      return token > 0 ? token : undefined;
    },
    async renewLease({ lease, owner, token, leaseMs }) {
      const [rows] = await call(PROCEDURES.renewLease, [lease, owner, token, Math.ceil(leaseMs)]);
      return Number(rows?.[0]?.renewed) === 1;
    },
    async releaseLease({ lease, owner, token }) {
      await run(`DELETE FROM ${p}leases WHERE name_hash = UNHEX(SHA2(?, 256)) AND owner = ? AND token = ?`, [lease, owner, token]);
    },
    async getBookingState({ bookingId }) {
      const row = (
        await rowsOf(
          `SELECT ${COLUMNS}, (SELECT GROUP_CONCAT(status) FROM ${p}results r
             WHERE r.correlation_id = b.correlation_id AND r.delivered_at IS NOT NULL) AS delivered
           FROM ${p}bookings b WHERE booking_id = ?`,
          [bookingId],
        )
      )[0];
      if (!row) return undefined;
      const delivered = typeof row.delivered === 'string' && row.delivered ? (row.delivered.split(',') as PaymentStatus[]) : [];
      return { booking: toBooking(row)!, delivered };
    },
    async getOrderState({ orderKey }) {
      // One statement, one snapshot: a result delivered meanwhile (which settles the booking in the same
      // transaction as it marks the result) shows up either as an open booking or as the paid one.
      const rows = await rowsOf(
        `SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid FROM ${p}bookings b WHERE order_key = ? ORDER BY created_at, booking_id`,
        [orderKey],
      );
      return orderState(rows);
    },
    async claimResult({ correlationId, status, owner, leaseMs, hold, judge }): Promise<ResultClaimAnswer> {
      const values = [correlationId, status, owner, Math.ceil(leaseMs), hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null, judge ? 1 : 0];
      const [known = [], booked = [], ...rest] = await call(PROCEDURES.claimResult, values);
      const head = rest[rest.length - 1]?.[0];
      const claim = head?.claim as ResultClaim;
      return {
        claim,
        booking: toBooking(booked[0]),
        known: known.map((row): KnownResult => ({ status: String(row.status) as PaymentStatus, state: Number(row.delivered) === 1 ? 'delivered' : 'claimed' })),
        ...(claim === 'claimed' && Number(head?.judged) === 1 && { order: orderState(rest[0] ?? []) }),
      };
    },
    async completeResult({ correlationId, status, owner }) {
      await call(PROCEDURES.completeResult, [correlationId, status, owner, status !== 'BOOKED' && status !== 'PENDING' ? 1 : 0]);
    },
    async releaseResult({ correlationId, status, owner }) {
      await run(`DELETE FROM ${p}results WHERE correlation_id = ? AND status = ? AND owner = ? AND delivered_at IS NULL`, [correlationId, status, owner]);
    },
    async getResults({ correlationId }) {
      const rows = await rowsOf(`SELECT status, delivered_at IS NOT NULL AS delivered FROM ${p}results WHERE correlation_id = ?`, [correlationId]);
      return rows.map((row): KnownResult => ({ status: String(row.status) as PaymentStatus, state: Number(row.delivered) === 1 ? 'delivered' : 'claimed' }));
    },
    async claimOpenBookings({ olderThanMs, notCheckedForMs, limit, owner, leaseMs, canceledWithinMs }) {
      const canceled = canceledWithinMs === undefined ? null : Math.ceil(canceledWithinMs);
      const [rows = []] = await call(PROCEDURES.claimOpen, [Math.ceil(olderThanMs), Math.ceil(notCheckedForMs), limit, owner, Math.ceil(leaseMs), canceled]);
      return rows.map((row) => toBooking(row)!);
    },
    async releaseCheck({ bookingId, owner }) {
      await run(`UPDATE ${p}bookings SET check_until = 0 WHERE booking_id = ? AND check_owner = ?`, [bookingId, owner]);
    },
    async prune({ before }) {
      const [rows] = await call('prune', [before]);
      return Number(rows?.[0]?.gone ?? 0);
    },
  };
}

