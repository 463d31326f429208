/**
 * The MySQL store's schema: its tables and the stored procedures that make each atomic step one
 * `CALL`, as {@link mysqlSchema} hands them to a merchant who runs them as a migration.
 */
import { COLUMNS, checkPrefix } from './sql-rows.js';

/**
 * The schema version this code reads and writes. Version 2 names each booking's provider (`provider`,
 * and the adapter's `provider_data`); the bookings of a version-1 database read as `'esewa-intent'`
 * with no provider data. Version 3 claims a result with what its delivery judges it by, in one `CALL`
 * (`claim_result_v3`), and refuses a write or renewal under a hold whose lease ended (`insert_booking_v3`,
 * `renew_lease_v3`). Version 4 keeps when and by which status a booking was settled (`settled_at`,
 * `settled_status`, by `complete_result_v4`), so reconcile asks again about the recently cancelled
 * ones (`claim_open_v4`). {@link mysqlSchema}'s statements move any earlier version to it.
 */
export const MYSQL_SCHEMA_VERSION = 4;

/**
 * The procedures whose arguments or answer changed since version 1, by the names this code calls:
 * a new name, not a replaced procedure, so that instances of the previous release still running during
 * a deploy keep calling theirs (which write the column defaults), and no procedure is ever missing.
 */
export const PROCEDURES = {
  beginBooking: 'begin_booking_v2',
  insertBooking: 'insert_booking_v3',
  renewLease: 'renew_lease_v3',
  claimOpen: 'claim_open_v4',
  claimResult: 'claim_result_v3',
  completeResult: 'complete_result_v4',
} as const;

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
 * `CREATE PROCEDURE`, which fails with error 1304 when the procedure exists, and the `ALTER TABLE` that
 * adds version 2's columns to a version-1 database, which fails with error 1060 when they exist (the
 * store ignores both). Together they also migrate a version-1 database.
 */
export function mysqlSchema(tablePrefix = 'wpb_'): string[] {
  const p = checkPrefix(tablePrefix);
  return [
    ...tables(p),
    ...bookingProcedures(p),
    ...resultProcedures(p),
    ...settlementProcedures(p),
    `UPDATE ${p}meta SET version = ${MYSQL_SCHEMA_VERSION} WHERE name = 'schema' AND version < ${MYSQL_SCHEMA_VERSION}`,
  ];
}

const TABLE = 'ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin';
/** A procedure's lease row key: the SHA-256 of its `p_lease` argument. */
const LEASE = 'UNHEX(SHA2(p_lease, 256))';

/**
 * Creates the lease row named `name` when there is none (held by nobody: ended, owner `owner`) and
 * locks it, its owner and end read into v_owner and v_until: two takers of a new lease queue on it.
 * Lines after the first start at `indent`.
 */
const lockLease = (p: string, name: string, owner: string, indent: string) =>
  `INSERT INTO ${p}leases (name_hash, name, owner, lease_until, token) VALUES (UNHEX(SHA2(${name}, 256)), ${name}, ${owner}, -1, 0)
${indent}  ON DUPLICATE KEY UPDATE lease_until = lease_until;
${indent}SELECT owner, lease_until INTO v_owner, v_until FROM ${p}leases WHERE name_hash = UNHEX(SHA2(${name}, 256)) FOR UPDATE;`;

/**
 * Counts into `into` whether `owner` holds the procedure's lease (`p_lease`) under `p_token`, locking
 * its row; when `unexpired`, only while the lease's time lasts (an ended hold writes and renews
 * nothing). Lines after the first start at `indent`.
 */
const holdsLease = (p: string, into: string, owner: string, indent: string, unexpired = true) =>
  `SELECT COUNT(*) INTO ${into} FROM ${p}leases WHERE name_hash = ${LEASE} AND owner = ${owner} ${BIN} AND token = p_token${
    unexpired ? `\n${indent}  AND lease_until >= ${NOW_MS}` : ''
  } FOR UPDATE;`;

/** The variables of a result claim (a procedure's first statements). */
const CLAIM_VARIABLES = `DECLARE v_owner ${NAME};
  DECLARE v_until BIGINT;
  DECLARE v_delivered BIGINT;
  DECLARE v_claim VARCHAR(16) DEFAULT 'busy';
  DECLARE v_now BIGINT;
  DECLARE v_fresh INT DEFAULT 1;`;

/**
 * Claims the result (p_correlation_id, p_status) for p_owner: its row created when there is none and
 * locked; v_claim is 'delivered' once delivered, 'claimed' when the row's claim ended or is already
 * p_owner's, and stays 'busy' otherwise. Inside an IF, four spaces in.
 */
const claimResultRow = (p: string) => `INSERT INTO ${p}results (correlation_id, status, owner, lease_until, created_at) VALUES (p_correlation_id, p_status, p_owner, -1, v_now)
      ON DUPLICATE KEY UPDATE lease_until = lease_until;
    SELECT owner, lease_until, delivered_at INTO v_owner, v_until, v_delivered FROM ${p}results
      WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} FOR UPDATE;
    IF v_delivered IS NOT NULL THEN
      SET v_claim = 'delivered';
    ELSEIF v_until < v_now OR v_owner = p_owner ${BIN} THEN
      UPDATE ${p}results SET owner = p_owner, lease_until = v_now + p_lease_ms WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN};
      SET v_claim = 'claimed';
    END IF;`;

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
  provider VARCHAR(64) NOT NULL DEFAULT 'esewa-intent',
  provider_data MEDIUMTEXT NULL,
  created_at BIGINT NOT NULL,
  settled TINYINT(1) NOT NULL DEFAULT 0,
  check_owner VARCHAR(255) NULL,
  check_until BIGINT NOT NULL DEFAULT 0,
  checked_at BIGINT NOT NULL DEFAULT 0,
  settled_at BIGINT NULL,
  settled_status VARCHAR(32) NULL,
  UNIQUE KEY by_key (idempotency_key),
  UNIQUE KEY by_correlation (correlation_id),
  KEY by_order (order_key(255)),
  KEY open_bookings (settled, created_at),
  KEY by_created (created_at),
  KEY by_settlement (settled_status, settled_at)
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
    // Version 2: each booking's provider; the defaults are what every version-1 booking was (a NULL
    // provider_data reads as ''; MySQL takes no plain default on a TEXT column).
    `ALTER TABLE ${p}bookings ADD COLUMN provider VARCHAR(64) NOT NULL DEFAULT 'esewa-intent' AFTER deeplink,
  ADD COLUMN provider_data MEDIUMTEXT NULL AFTER provider`,
    // Version 4: when and by which status a booking was settled (NULL for those settled before).
    `ALTER TABLE ${p}bookings ADD COLUMN settled_at BIGINT NULL, ADD COLUMN settled_status VARCHAR(32) NULL,
  ADD KEY by_settlement (settled_status, settled_at)`,
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
  ${lockLease(p, 'p_lease', 'p_owner', '  ')}
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
    `CREATE PROCEDURE ${p}${PROCEDURES.beginBooking}(p_key ${NAME}, p_order_key ${TEXT}, p_lease ${TEXT}, p_owner ${NAME}, p_lease_ms BIGINT)
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
    `CREATE PROCEDURE ${p}${PROCEDURES.insertBooking}(p_booking_id ${NAME}, p_correlation_id ${NAME}, p_transaction_uuid ${NAME}, p_key ${NAME},
  p_fingerprint ${TEXT}, p_channel ${NAME}, p_order_ref ${TEXT}, p_order_key ${TEXT}, p_amount DOUBLE, p_deeplink ${TEXT},
  p_provider ${NAME}, p_provider_data ${TEXT}, p_lease ${TEXT}, p_owner ${NAME}, p_token BIGINT)
BEGIN
  DECLARE v_fresh INT DEFAULT 1;
  DECLARE v_taken INT DEFAULT 0;
  DECLARE CONTINUE HANDLER FOR 1062 SET v_taken = 1;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  IF p_lease IS NOT NULL THEN
    ${holdsLease(p, 'v_fresh', 'p_owner', '    ')}
    IF v_fresh THEN DELETE FROM ${p}leases WHERE name_hash = ${LEASE}; END IF;
  END IF;
  IF v_fresh THEN
    INSERT INTO ${p}bookings (${COLUMNS}) VALUES (p_booking_id, p_correlation_id, p_transaction_uuid, p_key, p_fingerprint, p_channel,
      p_order_ref, p_order_key, p_amount, p_deeplink, p_provider, p_provider_data, ${NOW_MS});
  ELSE
    SET v_taken = EXISTS (SELECT 1 FROM ${p}bookings WHERE idempotency_key = p_key ${BIN});
  END IF;
  COMMIT;
  SELECT IF(v_taken, 'taken', IF(v_fresh, 'saved', 'stale')) AS outcome;
END`,
  ];
}

/** The procedures of a lease renewal and the result claims. */
function resultProcedures(p: string): string[] {
  return [
    // An ended lease is renewed by nothing: a renewal that reaches the server late revives no hold.
    `CREATE PROCEDURE ${p}${PROCEDURES.renewLease}(p_lease ${TEXT}, p_owner ${NAME}, p_token BIGINT, p_lease_ms BIGINT)
BEGIN
  DECLARE v_held INT DEFAULT 0;
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  ${holdsLease(p, 'v_held', 'p_owner', '  ')}
  IF v_held THEN UPDATE ${p}leases SET lease_until = ${NOW_MS} + p_lease_ms WHERE name_hash = ${LEASE}; END IF;
  COMMIT;
  SELECT v_held AS renewed;
END`,
    `CREATE PROCEDURE ${p}claim_result(p_correlation_id ${NAME}, p_status ${NAME}, p_owner ${NAME}, p_lease_ms BIGINT,
  p_lease ${TEXT}, p_hold_owner ${NAME}, p_token BIGINT)
BEGIN
  ${CLAIM_VARIABLES}
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  SET v_now = ${NOW_MS};
  IF p_lease IS NOT NULL THEN
    ${holdsLease(p, 'v_fresh', 'p_hold_owner', '    ', false)}
  END IF;
  IF NOT v_fresh THEN
    SET v_claim = IF(EXISTS (SELECT 1 FROM ${p}results
      WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} AND delivered_at IS NOT NULL), 'delivered', 'stale');
  ELSE
    ${claimResultRow(p)}
  END IF;
  COMMIT;
  SELECT v_claim AS claim;
END`,
    // Answers, in this order, the result's known rows, its booking, (judged) its order's rows as they
    // were before the claim, and the claim with whether it was judged. A judged claim locks the order's
    // paid lease row first; the transaction's first plain read comes after, so it sees what the order's
    // claim before it saved.
    `CREATE PROCEDURE ${p}${PROCEDURES.claimResult}(p_correlation_id ${NAME}, p_status ${NAME}, p_owner ${NAME}, p_lease_ms BIGINT,
  p_lease ${TEXT}, p_hold_owner ${NAME}, p_token BIGINT, p_judge INT)
BEGIN
  ${CLAIM_VARIABLES}
  DECLARE v_judged INT DEFAULT 0;
  DECLARE v_order ${TEXT} DEFAULT NULL;
  ${ROLLBACK_ON_ERROR}
  SET v_order = (SELECT order_key FROM ${p}bookings WHERE correlation_id = p_correlation_id ${BIN});
  START TRANSACTION;
  SET v_now = ${NOW_MS};
  IF p_judge AND v_order IS NOT NULL THEN
    ${lockLease(p, "CONCAT('paid:', v_order)", "''", '    ')}
    SET v_judged = IF(v_owner = '' OR v_owner = p_owner ${BIN} OR v_until < v_now, 1, 0);
  END IF;
  IF p_lease IS NOT NULL THEN
    ${holdsLease(p, 'v_fresh', 'p_hold_owner', '    ')}
  END IF;
  SELECT status, delivered_at IS NOT NULL AS delivered FROM ${p}results WHERE correlation_id = p_correlation_id ${BIN};
  SELECT ${COLUMNS} FROM ${p}bookings WHERE correlation_id = p_correlation_id ${BIN};
  IF v_judged THEN
    SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid
    FROM ${p}bookings b WHERE order_key = v_order ${BIN} ORDER BY created_at, booking_id;
  END IF;
  IF NOT v_fresh OR (p_judge AND v_order IS NOT NULL AND NOT v_judged) THEN
    SET v_claim = IF(EXISTS (SELECT 1 FROM ${p}results
      WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} AND delivered_at IS NOT NULL), 'delivered', IF(v_fresh, 'busy', 'stale'));
  ELSE
    ${claimResultRow(p)}
  END IF;
  COMMIT;
  SELECT v_claim AS claim, v_judged AS judged;
END`,
  ];
}

/** A booking (`b.` or unqualified) settled CANCELED less than `p_canceled_ms` ago and by nothing since. */
const RECHECK = (b: string) => `${b}settled_status = 'CANCELED' AND ${b}settled_at > v_now - p_canceled_ms`;
/** What a check claim takes, as asked: an open booking, or (with `p_canceled_ms`) a recently cancelled one. */
const CLAIMABLE = `IF(p_canceled_ms IS NULL, b.settled = 0, ${RECHECK('b.')})`;

/** The procedures that settle a result, claim open bookings for checks, and prune. */
function settlementProcedures(p: string): string[] {
  return [
    // The result and the booking's settlement (when, and by which status) are recorded together.
    `CREATE PROCEDURE ${p}${PROCEDURES.completeResult}(p_correlation_id ${NAME}, p_status ${NAME}, p_owner ${NAME}, p_final INT)
BEGIN
  ${ROLLBACK_ON_ERROR}
  START TRANSACTION;
  UPDATE ${p}results SET delivered_at = ${NOW_MS}
    WHERE correlation_id = p_correlation_id ${BIN} AND status = p_status ${BIN} AND owner = p_owner ${BIN} AND delivered_at IS NULL;
  IF ROW_COUNT() > 0 AND p_final THEN
    UPDATE ${p}bookings SET settled = 1, settled_at = ${NOW_MS}, settled_status = p_status WHERE correlation_id = p_correlation_id ${BIN};
  END IF;
  COMMIT;
END`,
    // p_canceled_ms NULL: open bookings, oldest first; else those settled CANCELED within it, by their cancel.
    `CREATE PROCEDURE ${p}${PROCEDURES.claimOpen}(p_older_than_ms BIGINT, p_not_checked_ms BIGINT, p_limit INT, p_owner ${NAME}, p_lease_ms BIGINT,
  p_canceled_ms BIGINT)
BEGIN
  DECLARE v_now BIGINT DEFAULT ${NOW_MS};
  ${ROLLBACK_ON_ERROR}
  -- This call's candidates, so that it answers only what it claimed: a claim stamped by the same owner
  -- in the same millisecond (an earlier call of one pass) is not this call's.
  DROP TEMPORARY TABLE IF EXISTS ${p}claiming;
  CREATE TEMPORARY TABLE ${p}claiming (booking_id VARCHAR(255) NOT NULL PRIMARY KEY) ${TABLE};
  START TRANSACTION;
  IF p_canceled_ms IS NULL THEN
    INSERT INTO ${p}claiming SELECT booking_id FROM ${p}bookings
      WHERE settled = 0 AND created_at <= v_now - p_older_than_ms AND check_until < v_now AND checked_at <= v_now - p_not_checked_ms
      ORDER BY created_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
  ELSE
    INSERT INTO ${p}claiming SELECT booking_id FROM ${p}bookings
      WHERE ${RECHECK('')} AND created_at <= v_now - p_older_than_ms AND check_until < v_now AND checked_at <= v_now - p_not_checked_ms
      ORDER BY settled_at LIMIT p_limit FOR UPDATE SKIP LOCKED;
  END IF;
  -- Candidates locked at once (no shared lock to upgrade, which deadlocks with a delivery); one another
  -- instance holds is left to it, and the update reads the latest row.
  UPDATE ${p}bookings b JOIN ${p}claiming c ON c.booking_id = b.booking_id
    SET b.check_owner = p_owner, b.check_until = v_now + p_lease_ms, b.checked_at = v_now
    WHERE ${CLAIMABLE} AND b.check_until < v_now AND b.checked_at <= v_now - p_not_checked_ms;
  SELECT ${COLUMNS.split(', ').map((c) => `b.${c}`).join(', ')} FROM ${p}bookings b JOIN ${p}claiming c ON c.booking_id = b.booking_id
    WHERE ${CLAIMABLE} AND b.check_owner = p_owner ${BIN} AND b.checked_at = v_now AND b.check_until = v_now + p_lease_ms
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
export function paidSql(p: string): string {
  return `(EXISTS (SELECT 1 FROM ${p}results s WHERE s.correlation_id = b.correlation_id AND s.status = 'SUCCESS')
        AND NOT EXISTS (SELECT 1 FROM ${p}results r
          WHERE r.correlation_id = b.correlation_id AND r.status = 'REVERTED' AND r.delivered_at IS NOT NULL))`;
}
