/**
 * `wallet-pay-button/server/mysql`: a {@link PaymentStore} on MySQL 8 or MariaDB 10.11, shared by any
 * number of handler processes. It needs only `query(sql, values)` as `mysql2/promise` answers it, so a
 * `mysql2/promise` pool serves; `mysql2` is not a dependency of this package.
 *
 * Every step that must be atomic and answered in one round trip is a stored procedure (created with
 * the tables), run as one `CALL`.
 */
import type { PaymentStatus } from '../protocol/contract.js';
import { COLUMNS, checkPrefix, orderState, toBooking, type SqlStoreOptions } from './sql-rows.js';
import { checkDeadline, withinDeadline } from './store-deadline.js';
import { StoreUnavailableError } from './store-errors.js';
import type { BookingInsertion, BookingOpening, KnownResult, PaymentStore, ResultClaim } from './store.js';

/** What the store needs of a database client: a `mysql2/promise` pool (or connection) fits. */
export interface MysqlQueryable {
  query(sql: string, values?: unknown[]): Promise<[unknown, unknown]>;
}

/** Options of {@link createMysqlStore}: those of every SQL store. */
export type MysqlStoreOptions = SqlStoreOptions;

/** A {@link PaymentStore} on MySQL or MariaDB, with {@link ready} to create (or check) its tables ahead of the first request. */
export interface MysqlStore extends PaymentStore {
  /** Creates the tables and procedures when missing and checks the schema version. Every method awaits it first. */
  ready(): Promise<void>;
}

/** The schema version this code reads and writes. */
export const MYSQL_SCHEMA_VERSION = 1;

// Text arguments of the procedures: UTF-8 whatever the database's default, compared byte for byte
// with the columns (utf8mb4_bin) by an explicit COLLATE.
const TEXT = 'MEDIUMTEXT CHARACTER SET utf8mb4';
const NAME = 'VARCHAR(255) CHARACTER SET utf8mb4';
const BIN = 'COLLATE utf8mb4_bin';
// A procedure whose statement fails leaves no transaction open on the pooled connection.
/** The server's clock in ms since the epoch, whatever the session's time zone: every lease and claim starts and ends by it. */
const NOW_MS = "(TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) DIV 1000)";
const ROLLBACK_ON_ERROR = 'DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;';

/**
 * The SQL that creates the store's tables and procedures (the statements {@link createMysqlStore}
 * runs), for merchants who manage migrations themselves: each is one statement (no `DELIMITER`
 * needed through a driver). Times are milliseconds since the epoch. Every statement is idempotent but
 * `CREATE PROCEDURE`, which fails with error 1304 when the procedure exists (the store ignores that).
 */
export function mysqlSchema(tablePrefix = 'wpb_'): string[] {
  const p = checkPrefix(tablePrefix);
  return [
    ...tables(p),
    ...bookingProcedures(p),
    ...resultProcedures(p),
    `UPDATE ${p}meta SET version = ${MYSQL_SCHEMA_VERSION} WHERE name = 'schema' AND version < ${MYSQL_SCHEMA_VERSION}`,
  ];
}

const TABLE = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';
/** A procedure's lease row key: the SHA-256 of its `p_lease` argument. */
const LEASE = 'UNHEX(SHA2(p_lease, 256))';

/** The tables, and the schema version of a new database. */
function tables(p: string): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${p}meta (name VARCHAR(64) NOT NULL PRIMARY KEY, version INT NOT NULL) ${TABLE}`,
    `CREATE TABLE IF NOT EXISTS ${p}bookings (
  booking_id VARCHAR(255) NOT NULL PRIMARY KEY,
  correlation_id VARCHAR(255) NOT NULL,
  transaction_uuid VARCHAR(255) NOT NULL,
  idempotency_key VARCHAR(255) NOT NULL,
  fingerprint MEDIUMTEXT NOT NULL,
  channel VARCHAR(32) NOT NULL,
  order_ref MEDIUMTEXT NOT NULL,
  order_key MEDIUMTEXT NOT NULL,
  amount DOUBLE NOT NULL,
  deeplink TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  settled TINYINT(1) NOT NULL DEFAULT 0,
  check_owner VARCHAR(255) NULL,
  check_until BIGINT NOT NULL DEFAULT 0,
  checked_at BIGINT NOT NULL DEFAULT 0,
  UNIQUE KEY by_key (idempotency_key),
  UNIQUE KEY by_correlation (correlation_id),
  KEY by_order (order_key(255)),
  KEY open_bookings (settled, created_at),
  KEY by_created (created_at)
) ${TABLE}`,
    `CREATE TABLE IF NOT EXISTS ${p}results (
  correlation_id VARCHAR(255) NOT NULL,
  status VARCHAR(32) NOT NULL,
  owner VARCHAR(255) NOT NULL,
  lease_until BIGINT NOT NULL,
  delivered_at BIGINT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (correlation_id, status),
  KEY by_created (created_at)
) ${TABLE}`,
    // Lease names hold an order's canonical JSON, longer than a key may be: keyed by their SHA-256.
    `CREATE TABLE IF NOT EXISTS ${p}leases (
  name_hash BINARY(32) NOT NULL PRIMARY KEY,
  name MEDIUMTEXT NOT NULL,
  owner VARCHAR(255) NOT NULL,
  lease_until BIGINT NOT NULL,
  token BIGINT NOT NULL,
  KEY by_until (lease_until)
) ${TABLE}`,
    `INSERT INTO ${p}meta (name, version) VALUES ('schema', ${MYSQL_SCHEMA_VERSION}) ON DUPLICATE KEY UPDATE name = name`,
    // Every fencing token comes from this counter (kept across restarts), so a lease taken again never
    // hands out a token it had before.
    `CREATE TABLE IF NOT EXISTS ${p}lease_tokens (token BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY) ${TABLE}`,
  ];
}

/** The procedures of a book: the fenced order lease taken, the book begun, the booking saved. */
function bookingProcedures(p: string): string[] {
  return [
    // Takes the lease for p_owner under a new token when free, ended or already p_owner's; v_token is 0
    // when another holds it. The row is created or locked first, so two takers of a new lease queue.
    `CREATE PROCEDURE ${p}take_lease(p_lease ${TEXT}, p_owner ${NAME}, p_lease_ms BIGINT, OUT v_token BIGINT)
BEGIN
  DECLARE v_owner ${NAME};
  DECLARE v_until BIGINT;
  DECLARE v_now BIGINT DEFAULT ${NOW_MS};
  SET v_token = 0;
  INSERT INTO ${p}leases (name_hash, name, owner, lease_until, token) VALUES (${LEASE}, p_lease, p_owner, -1, 0)
    ON DUPLICATE KEY UPDATE lease_until = lease_until;
  SELECT owner, lease_until INTO v_owner, v_until FROM ${p}leases WHERE name_hash = ${LEASE} FOR UPDATE;
  IF v_until < v_now OR v_owner = p_owner ${BIN} THEN
    INSERT INTO ${p}lease_tokens () VALUES ();
    SET v_token = LAST_INSERT_ID();
    DELETE FROM ${p}lease_tokens WHERE token = v_token;
    UPDATE ${p}leases SET owner = p_owner, lease_until = v_now + p_lease_ms, token = v_token WHERE name_hash = ${LEASE};
  END IF;
END`,
    // A named lease on its own (the kit's paid:{order_key}), in a transaction of its own.
    `CREATE PROCEDURE ${p}acquire_lease(p_lease ${TEXT}, p_owner ${NAME}, p_lease_ms BIGINT)
BEGIN
  DECLARE v_token BIGINT DEFAULT 0;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  CALL ${p}take_lease(p_lease, p_owner, p_lease_ms, v_token);
  COMMIT;
  SELECT v_token AS token;
END`,
    `CREATE PROCEDURE ${p}begin_booking(p_key ${NAME}, p_order_key ${TEXT}, p_lease ${TEXT}, p_owner ${NAME}, p_lease_ms BIGINT)
BEGIN
  DECLARE v_token BIGINT DEFAULT 0;
  ${ROLLBACK_ON_ERROR}
  IF EXISTS (SELECT 1 FROM ${p}bookings WHERE idempotency_key = p_key ${BIN}) THEN
    SELECT 'booked' AS status;
    SELECT ${COLUMNS} FROM ${p}bookings WHERE idempotency_key = p_key ${BIN};
  ELSE
    START TRANSACTION;
    CALL ${p}take_lease(p_lease, p_owner, p_lease_ms, v_token);
    IF v_token = 0 THEN
      COMMIT;
      SELECT 'busy' AS status;
    -- The transaction's first plain read comes after the lease is taken: it sees what the lease's
    -- previous holders saved before they let the lease go.
    ELSEIF EXISTS (SELECT 1 FROM ${p}bookings WHERE idempotency_key = p_key ${BIN}) THEN
      DELETE FROM ${p}leases WHERE name_hash = ${LEASE} AND token = v_token;
      COMMIT;
      SELECT 'booked' AS status;
      SELECT ${COLUMNS} FROM ${p}bookings WHERE idempotency_key = p_key ${BIN};
    ELSE
      SELECT 'leased' AS status, v_token AS token;
      SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid
      FROM ${p}bookings b WHERE order_key = p_order_key ${BIN} ORDER BY created_at, booking_id;
      COMMIT;
    END IF;
  END IF;
END`,
    // The hold is checked on the locked lease row, and the lease ends in the same transaction: a holder
    // that lost the order saves nothing, and the next holder finds what the current one saved.
    `CREATE PROCEDURE ${p}insert_booking(p_booking_id ${NAME}, p_correlation_id ${NAME}, p_transaction_uuid ${NAME}, p_key ${NAME},
  p_fingerprint ${TEXT}, p_channel ${NAME}, p_order_ref ${TEXT}, p_order_key ${TEXT}, p_amount DOUBLE, p_deeplink ${TEXT},
  p_lease ${TEXT}, p_owner ${NAME}, p_token BIGINT)
BEGIN
  DECLARE v_fresh INT DEFAULT 1;
  DECLARE v_taken INT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR 1062 SET v_taken = 1;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  IF p_lease IS NOT NULL THEN
    SELECT COUNT(*) INTO v_fresh FROM ${p}leases WHERE name_hash = ${LEASE} AND owner = p_owner ${BIN} AND token = p_token FOR UPDATE;
    IF v_fresh THEN DELETE FROM ${p}leases WHERE name_hash = ${LEASE}; END IF;
  END IF;
  IF v_fresh THEN
    INSERT INTO ${p}bookings (${COLUMNS}) VALUES (p_booking_id, p_correlation_id, p_transaction_uuid, p_key, p_fingerprint, p_channel,
      p_order_ref, p_order_key, p_amount, p_deeplink, ${NOW_MS});
  ELSE
    SET v_taken = EXISTS (SELECT 1 FROM ${p}bookings WHERE idempotency_key = p_key ${BIN});
  END IF;
  COMMIT;
  SELECT IF(v_taken, 'taken', IF(v_fresh, 'saved', 'stale')) AS outcome;
END`,
  ];
}

/** The procedures of a lease renewal, the result claims, the check claims and pruning. */
function resultProcedures(p: string): string[] {
  return [
    `CREATE PROCEDURE ${p}renew_lease(p_lease ${TEXT}, p_owner ${NAME}, p_token BIGINT, p_lease_ms BIGINT)
BEGIN
  DECLARE v_held INT DEFAULT 0;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  SELECT COUNT(*) INTO v_held FROM ${p}leases WHERE name_hash = ${LEASE} AND owner = p_owner ${BIN} AND token = p_token FOR UPDATE;
  IF v_held THEN UPDATE ${p}leases SET lease_until = ${NOW_MS} + p_lease_ms WHERE name_hash = ${LEASE}; END IF;
  COMMIT;
  SELECT v_held AS renewed;
END`,
    `CREATE PROCEDURE ${p}claim_result(p_correlation_id ${NAME}, p_status ${NAME}, p_owner ${NAME}, p_lease_ms BIGINT,
  p_lease ${TEXT}, p_hold_owner ${NAME}, p_token BIGINT)
BEGIN
  DECLARE v_owner ${NAME};
  DECLARE v_until BIGINT;
  DECLARE v_delivered BIGINT;
  DECLARE v_claim VARCHAR(16) DEFAULT 'busy';
  DECLARE v_now BIGINT;
  DECLARE v_fresh INT DEFAULT 1;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  SET v_now = ${NOW_MS};
  IF p_lease IS NOT NULL THEN
    SELECT COUNT(*) INTO v_fresh FROM ${p}leases WHERE name_hash = ${LEASE} AND owner = p_hold_owner ${BIN} AND token = p_token FOR UPDATE;
  END IF;
  IF NOT v_fresh THEN
    SET v_claim = IF(EXISTS (SELECT 1 FROM ${p}results
      WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} AND delivered_at IS NOT NULL), 'delivered', 'stale');
  ELSE
    INSERT INTO ${p}results (correlation_id, status, owner, lease_until, created_at) VALUES (p_correlation_id, p_status, p_owner, -1, v_now)
      ON DUPLICATE KEY UPDATE lease_until = lease_until;
    SELECT owner, lease_until, delivered_at INTO v_owner, v_until, v_delivered FROM ${p}results
      WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} FOR UPDATE;
    IF v_delivered IS NOT NULL THEN
      SET v_claim = 'delivered';
    ELSEIF v_until < v_now OR v_owner = p_owner ${BIN} THEN
      UPDATE ${p}results SET owner = p_owner, lease_until = v_now + p_lease_ms WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN};
      SET v_claim = 'claimed';
    END IF;
  END IF;
  COMMIT;
  SELECT v_claim AS claim;
END`,
    // The result and the booking's settlement are recorded together.
    `CREATE PROCEDURE ${p}complete_result(p_correlation_id ${NAME}, p_status ${NAME}, p_owner ${NAME}, p_final INT)
BEGIN
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  UPDATE ${p}results SET delivered_at = ${NOW_MS}
    WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} AND owner = p_owner ${BIN} AND delivered_at IS NULL;
  IF ROW_COUNT() > 0 AND p_final THEN UPDATE ${p}bookings SET settled = 1 WHERE correlation_id = p_correlation_id ${BIN}; END IF;
  COMMIT;
END`,
    `CREATE PROCEDURE ${p}claim_open(p_older_than_ms BIGINT, p_not_checked_ms BIGINT, p_limit INT, p_owner ${NAME}, p_lease_ms BIGINT)
BEGIN
  DECLARE v_now BIGINT DEFAULT ${NOW_MS};
  ${ROLLBACK_ON_ERROR}
  -- This call's candidates, so that it answers only what it claimed: a claim stamped by the same owner
  -- in the same millisecond (an earlier call of one pass) is not this call's.
  DROP TEMPORARY TABLE IF EXISTS ${p}claiming;
  CREATE TEMPORARY TABLE ${p}claiming (booking_id VARCHAR(255) NOT NULL PRIMARY KEY) ${TABLE};
  START TRANSACTION;
  INSERT INTO ${p}claiming SELECT booking_id FROM ${p}bookings
    WHERE settled = 0 AND created_at <= v_now - p_older_than_ms AND check_until < v_now AND checked_at <= v_now - p_not_checked_ms
    ORDER BY created_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
  -- Candidates locked at once (no shared lock to upgrade, which deadlocks with a delivery); one another
  -- instance holds is left to it, and the update reads the latest row.
  UPDATE ${p}bookings b JOIN ${p}claiming c ON c.booking_id = b.booking_id
    SET b.check_owner = p_owner, b.check_until = v_now + p_lease_ms, b.checked_at = v_now
    WHERE b.settled = 0 AND b.check_until < v_now AND b.checked_at <= v_now - p_not_checked_ms;
  SELECT ${COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')} FROM ${p}bookings b JOIN ${p}claiming c ON c.booking_id = b.booking_id
    WHERE b.settled = 0 AND b.check_owner = p_owner ${BIN} AND b.checked_at = v_now AND b.check_until = v_now + p_lease_ms
    ORDER BY b.created_at, b.booking_id;
  COMMIT;
  DROP TEMPORARY TABLE ${p}claiming;
END`,
    `CREATE PROCEDURE ${p}prune(p_before BIGINT)
BEGIN
  DECLARE v_gone INT DEFAULT 0;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  -- A booking's results go with it, whenever they were claimed.
  DELETE r FROM ${p}results r JOIN ${p}bookings b ON b.correlation_id = r.correlation_id WHERE b.created_at < p_before;
  DELETE FROM ${p}results WHERE created_at < p_before;
  DELETE FROM ${p}bookings WHERE created_at < p_before;
  SET v_gone = ROW_COUNT();
  DELETE FROM ${p}leases WHERE lease_until < LEAST(p_before, ${NOW_MS});
  COMMIT;
  SELECT v_gone AS gone;
END`,
  ];
}

/**
 * Whether the booking `b` is paid: a `SUCCESS` of it is delivered or claimed by an instance delivering
 * it (nothing else writes a result row), and no refund (`REVERTED`) of it has been delivered.
 */
function paidSql(p: string): string {
  return `(EXISTS (SELECT 1 FROM ${p}results s WHERE s.correlation_id = b.correlation_id AND s.status = 'SUCCESS')
        AND NOT EXISTS (SELECT 1 FROM ${p}results r
          WHERE r.correlation_id = b.correlation_id AND r.status = 'REVERTED' AND r.delivered_at IS NOT NULL))`;
}

/** MySQL's "procedure already exists": another process created it first, or an earlier start did. */
const ER_SP_ALREADY_EXISTS = 1304;
/** InnoDB's deadlock victim: its transaction was rolled back whole, so running it again is safe. */
const ER_LOCK_DEADLOCK = 1213;

/** A driver's error number (`errno`), if any. */
const errnoOf = (error: unknown): number | undefined => {
  const errno = (error as { errno?: unknown } | null)?.errno;
  return typeof errno === 'number' ? errno : undefined;
};

/** What the store's methods run on: the set-up once, then each statement under the deadline. */
interface Connection {
  /** Creates or checks the schema (once), under its longer deadline. */
  ready(): Promise<void>;
  /** One statement (or CALL), under the deadline; its result sets, each a list of rows. */
  run(sql: string, values: unknown[]): Promise<Array<Array<Record<string, unknown>>>>;
}

function connect(pool: MysqlQueryable, p: string, createTables: boolean, deadlineMs: number): Connection {
  let setUp: Promise<void> | undefined;
  let isSetUp = false;
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
            if (errnoOf(error) !== ER_SP_ALREADY_EXISTS) throw error;
          }
        }
      }
    }
    const found = await version();
    if (found !== MYSQL_SCHEMA_VERSION) {
      throw new Error(
        found === undefined
          ? `The payment store's tables (${p}*) have no schema version; run mysqlSchema()'s SQL.`
          : found < MYSQL_SCHEMA_VERSION
            ? `The payment store's tables (${p}*) have schema version ${found}; this code reads version ${MYSQL_SCHEMA_VERSION}: run mysqlSchema()'s SQL to migrate them.`
            : `The payment store's tables (${p}*) have schema version ${found}; this code reads version ${MYSQL_SCHEMA_VERSION}.`,
      );
    }
  }

  function ready(): Promise<void> {
    setUp ??= prepare().then(
      () => {
        isSetUp = true;
      },
      (error: unknown) => {
        setUp = undefined; // a database that was down at start-up is tried again on the next call
        throw error;
      },
    );
    return setUp;
  }

  async function run(sql: string, values: unknown[]): Promise<Array<Array<Record<string, unknown>>>> {
    if (!isSetUp) await withinDeadline(ready, setUpDeadlineMs, unavailable);
    return withinDeadline(async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const [result] = await ask(sql, values);
          return resultSets(result);
        } catch (error) {
          if (attempt >= 3 || errnoOf(error) !== ER_LOCK_DEADLOCK) throw error;
        }
      }
    }, deadlineMs, unavailable);
  }

  return { ready: () => withinDeadline(ready, setUpDeadlineMs, unavailable), run };
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
      const [rows] = await call('insert_booking', [
        b.booking_id, b.correlation_id, b.transaction_uuid, b.idempotency_key, b.fingerprint, b.channel,
        JSON.stringify(b.order), b.order_key, b.amount, b.deeplink, hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null,
      ]);
      return rows?.[0]?.outcome as BookingInsertion;
    },
    async beginBooking({ key, orderKey, lease, owner, leaseMs }): Promise<BookingOpening> {
      const [head, bookings = []] = await call('begin_booking', [key, orderKey, lease, owner, Math.ceil(leaseMs)]);
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
      const [rows] = await call('renew_lease', [lease, owner, token, Math.ceil(leaseMs)]);
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
    async claimResult({ correlationId, status, owner, leaseMs, hold }): Promise<ResultClaim> {
      const [rows] = await call('claim_result', [correlationId, status, owner, Math.ceil(leaseMs), hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null]);
      return rows?.[0]?.claim as ResultClaim;
    },
    async completeResult({ correlationId, status, owner }) {
      await call('complete_result', [correlationId, status, owner, status !== 'BOOKED' && status !== 'PENDING' ? 1 : 0]);
    },
    async releaseResult({ correlationId, status, owner }) {
      await run(`DELETE FROM ${p}results WHERE correlation_id = ? AND status = ? AND owner = ? AND delivered_at IS NULL`, [correlationId, status, owner]);
    },
    async getResults({ correlationId }) {
      const rows = await rowsOf(`SELECT status, delivered_at IS NOT NULL AS delivered FROM ${p}results WHERE correlation_id = ?`, [correlationId]);
      return rows.map((row): KnownResult => ({ status: String(row.status) as PaymentStatus, state: Number(row.delivered) === 1 ? 'delivered' : 'claimed' }));
    },
    async claimOpenBookings({ olderThanMs, notCheckedForMs, limit, owner, leaseMs }) {
      const [rows = []] = await call('claim_open', [Math.ceil(olderThanMs), Math.ceil(notCheckedForMs), limit, owner, Math.ceil(leaseMs)]);
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
