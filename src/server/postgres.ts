/**
 * `wallet-pay-button/server/postgres`: a {@link PaymentStore} on PostgreSQL, shared by any number of
 * handler processes. It needs only `db.query(text, params)`, so a node-postgres `Pool` or `Client`
 * (a PostgreSQL server) and a PGlite instance (PostgreSQL in-process, file-backed) both serve; neither
 * is a dependency of this package.
 */
import type { PaymentStatus } from '../protocol/contract.js';
import { postgresOutage, setUpRetry } from './postgres-errors.js';
import { COLUMNS, checkPrefix, orderState, toBooking, type SqlStoreOptions } from './sql-rows.js';
import { checkDeadline, retryingDeadlocks, withinDeadline } from './store-deadline.js';
import { schemaVersionError, setUpOnce } from './store-setup.js';
import type { BookingInsertion, BookingOpening, KnownResult, PaymentStore, ResultClaim, ResultClaimAnswer } from './store.js';

export { postgresOutage } from './postgres-errors.js';

/** What the store needs of a database client: node-postgres' `Pool`/`Client` and PGlite fit. */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/** Options of {@link createPostgresStore}: {@link SqlStoreOptions}, and how its statements are sent. */
export interface PostgresStoreOptions extends SqlStoreOptions {
  /**
   * Send each statement as a named prepared statement (node-postgres' `{ name, text, values }`), so the
   * server parses and plans it once per connection instead of at every call. Default: on for a client
   * with `connect` (node-postgres' `Pool` and `Client`), off otherwise (PGlite). Set `false` behind a
   * pooler in transaction mode that does not keep prepared statements (PgBouncer before 1.21).
   */
  preparedStatements?: boolean;
}

/** A {@link PaymentStore} on PostgreSQL, with {@link ready} to create (or check) its tables ahead of the first request. */
export interface PostgresStore extends PaymentStore {
  /** Creates the tables when missing and checks the schema version. Every method awaits it first. */
  ready(): Promise<void>;
}

/**
 * The schema version this code reads and writes. Version 2 indexes every booking by its order (version
 * 1 indexed only the open ones), so a book finds an order's paid booking as well as its open ones.
 * Version 3 adds the function `{prefix}begin_booking`, which starts a book in one round trip. Version 4
 * fences the order leases: a `token` on each lease from the sequence `{prefix}lease_tokens`, and lease
 * times read from the server's clock. Version 5 names each booking's provider (`provider`, and the
 * adapter's `provider_data`); the bookings of a version-4 database read as `'esewa-intent'` with no
 * provider data. Version 6 adds `{prefix}claim_result`, which claims a result and reads what its
 * delivery judges it by in one round trip. Version 7 keeps when and by which status a booking was
 * settled (`settled_at`, `settled_status`), so reconcile asks again about the recently cancelled ones
 * (a booking settled before it reads as settled long ago). {@link postgresSchema}'s statements move any
 * earlier version to it.
 */
export const SCHEMA_VERSION = 7;

/** The server's clock in ms since the epoch: every lease and claim starts and ends by it, whatever the clocks of the processes. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/**
 * The SQL that creates the store's tables (the same statements {@link createPostgresStore} runs), for
 * merchants who manage migrations themselves. Times are milliseconds since the epoch. Every statement
 * is idempotent, and together they also migrate any earlier version (the last five statements: the
 * order index that replaces version 1's; the fenced leases, provider and settlement columns and the
 * functions; the index of cancelled bookings; and the version).
 */
export function postgresSchema(tablePrefix = 'wpb_'): string[] {
  const p = checkPrefix(tablePrefix);
  return [
    `CREATE TABLE IF NOT EXISTS ${p}meta (name text PRIMARY KEY, version integer NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${p}bookings (
  booking_id text PRIMARY KEY,
  correlation_id text NOT NULL UNIQUE,
  transaction_uuid text NOT NULL,
  idempotency_key text NOT NULL UNIQUE,
  fingerprint text NOT NULL,
  channel text NOT NULL,
  order_ref text NOT NULL,
  order_key text NOT NULL,
  amount double precision NOT NULL,
  deeplink text NOT NULL,
  provider text NOT NULL DEFAULT 'esewa-intent',
  provider_data text NOT NULL DEFAULT '',
  created_at bigint NOT NULL,
  settled boolean NOT NULL DEFAULT false,
  settled_at bigint,
  settled_status text,
  check_owner text,
  check_until bigint NOT NULL DEFAULT 0,
  checked_at bigint NOT NULL DEFAULT 0
)`,
    `CREATE INDEX IF NOT EXISTS ${p}bookings_open ON ${p}bookings (created_at) WHERE NOT settled`,
    `CREATE INDEX IF NOT EXISTS ${p}bookings_created ON ${p}bookings (created_at)`,
    `CREATE TABLE IF NOT EXISTS ${p}results (
  correlation_id text NOT NULL,
  status text NOT NULL,
  owner text NOT NULL,
  lease_until bigint NOT NULL,
  delivered_at bigint,
  created_at bigint NOT NULL,
  PRIMARY KEY (correlation_id, status)
)`,
    `CREATE INDEX IF NOT EXISTS ${p}results_created ON ${p}results (created_at)`,
    `CREATE TABLE IF NOT EXISTS ${p}leases (name text PRIMARY KEY, owner text NOT NULL, lease_until bigint NOT NULL, token bigint NOT NULL DEFAULT 0)`,
    `INSERT INTO ${p}meta (name, version) VALUES ('schema', ${SCHEMA_VERSION}) ON CONFLICT (name) DO NOTHING`,
    // Version 1 to 2: every booking of an order, settled ones included, by one index.
    `CREATE INDEX IF NOT EXISTS ${p}bookings_order ON ${p}bookings (order_key)`,
    `DROP INDEX IF EXISTS ${p}bookings_order_open`,
    migrationBlock(p),
    // Version 7: the bookings settled CANCELED, by when, for reconcile's recheck of them.
    `CREATE INDEX IF NOT EXISTS ${p}bookings_canceled ON ${p}bookings (settled_at) WHERE settled_status = 'CANCELED'`,
    `UPDATE ${p}meta SET version = ${SCHEMA_VERSION} WHERE name = 'schema' AND version < ${SCHEMA_VERSION}`,
  ];
}

/**
 * Version 4: fenced leases on the server's clock, and a book that starts in one round trip; version 5:
 * each booking's provider (the defaults are what every earlier booking was); version 7: when and by
 * which status a booking was settled. Run under a lock, since
 * two processes replacing one function at the same moment make one of them fail.
 */
function migrationBlock(p: string): string {
  return `DO $do$ BEGIN
PERFORM pg_advisory_xact_lock(hashtext('${p}schema'));
ALTER TABLE ${p}leases ADD COLUMN IF NOT EXISTS token bigint NOT NULL DEFAULT 0;
ALTER TABLE ${p}bookings ADD COLUMN IF NOT EXISTS provider text NOT NULL DEFAULT 'esewa-intent',
  ADD COLUMN IF NOT EXISTS provider_data text NOT NULL DEFAULT '',
  ADD COLUMN IF NOT EXISTS settled_at bigint, ADD COLUMN IF NOT EXISTS settled_status text;
CREATE SEQUENCE IF NOT EXISTS ${p}lease_tokens;
DROP FUNCTION IF EXISTS ${p}begin_booking(text, text, text, text, bigint, bigint);
CREATE OR REPLACE FUNCTION ${p}begin_booking(p_key text, p_order_key text, p_lease text, p_owner text, p_lease_ms bigint)
RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  known jsonb;
  fence bigint;
BEGIN
  SELECT to_jsonb(b) INTO known FROM (SELECT ${COLUMNS} FROM ${p}bookings WHERE idempotency_key = p_key) b;
  IF known IS NOT NULL THEN RETURN jsonb_build_object('status', 'booked', 'booking', known); END IF;
  -- Free, ended or the caller's own: taken under a new token, its times read once the row is locked.
  INSERT INTO ${p}leases AS l (name, owner, lease_until, token)
    VALUES (p_lease, p_owner, ${NOW_MS} + p_lease_ms, nextval('${p}lease_tokens'))
    ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = ${NOW_MS} + p_lease_ms, token = EXCLUDED.token
    WHERE l.lease_until < ${NOW_MS} OR l.owner = EXCLUDED.owner
    RETURNING l.token INTO fence;
  IF NOT FOUND THEN RETURN jsonb_build_object('status', 'busy'); END IF;
  -- Each statement of this function reads a fresh snapshot: from here on, what the lease's previous
  -- holder saved before it let the lease go is seen.
  SELECT to_jsonb(b) INTO known FROM (SELECT ${COLUMNS} FROM ${p}bookings WHERE idempotency_key = p_key) b;
  IF known IS NOT NULL THEN
    DELETE FROM ${p}leases WHERE name = p_lease AND owner = p_owner AND token = fence;
    RETURN jsonb_build_object('status', 'booked', 'booking', known);
  END IF;
  RETURN jsonb_build_object('status', 'leased', 'token', fence, 'bookings', COALESCE((
    SELECT jsonb_agg(to_jsonb(o) ORDER BY o.created_at, o.booking_id) FROM (
      SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid FROM ${p}bookings b WHERE order_key = p_order_key AND ${readByBook(p)}) o), '[]'::jsonb));
END
$fn$;
CREATE OR REPLACE FUNCTION ${p}claim_result(p_corr text, p_status text, p_owner text, p_lease_ms bigint, p_lease text, p_holder text, p_token bigint, p_judge boolean)
RETURNS jsonb LANGUAGE plpgsql AS $fn$
DECLARE
  booked jsonb;
  v_order text;
  v_owner text;
  v_until bigint;
  v_known jsonb;
  v_state jsonb;
  v_claimed int;
BEGIN
  SELECT to_jsonb(b), b.order_key INTO booked, v_order FROM (SELECT ${COLUMNS} FROM ${p}bookings WHERE correlation_id = p_corr) b;
  IF p_judge AND v_order IS NOT NULL THEN
    -- The order's paid lease row, locked until this call ends: the order's judged claims run one by one,
    -- and each reads (in the statements below, each a fresh snapshot) what the one before it claimed.
    INSERT INTO ${p}leases AS l (name, owner, lease_until, token) VALUES ('paid:' || v_order, '', 0, 0)
      ON CONFLICT (name) DO UPDATE SET lease_until = l.lease_until RETURNING l.owner, l.lease_until INTO v_owner, v_until;
  END IF;
  SELECT COALESCE(jsonb_agg(jsonb_build_object('status', status, 'delivered', delivered_at IS NOT NULL)), '[]'::jsonb) INTO v_known
    FROM ${p}results WHERE correlation_id = p_corr;
  IF EXISTS (SELECT 1 FROM ${p}results WHERE correlation_id = p_corr AND status = p_status AND delivered_at IS NOT NULL) THEN
    RETURN jsonb_build_object('claim', 'delivered', 'booking', booked, 'known', v_known);
  END IF;
  IF p_lease IS NOT NULL THEN
    PERFORM 1 FROM ${p}leases WHERE name = p_lease AND owner = p_holder AND token = p_token AND lease_until >= ${NOW_MS} FOR UPDATE;
    IF NOT FOUND THEN RETURN jsonb_build_object('claim', 'stale', 'booking', booked, 'known', v_known); END IF;
  END IF;
  IF v_owner IS NOT NULL AND v_owner NOT IN ('', p_owner) AND v_until >= ${NOW_MS} THEN
    RETURN jsonb_build_object('claim', 'busy', 'booking', booked, 'known', v_known);
  END IF;
  IF p_judge AND v_order IS NOT NULL THEN
    SELECT COALESCE(jsonb_agg(to_jsonb(o) ORDER BY o.created_at, o.booking_id), '[]'::jsonb) INTO v_state FROM (
      SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid FROM ${p}bookings b WHERE order_key = v_order AND ${readByBook(p)}) o;
  END IF;
  INSERT INTO ${p}results (correlation_id, status, owner, lease_until, created_at)
    VALUES (p_corr, p_status, p_owner, ${NOW_MS} + p_lease_ms, ${NOW_MS})
    ON CONFLICT (correlation_id, status) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
    WHERE ${p}results.delivered_at IS NULL AND (${p}results.lease_until < ${NOW_MS} OR ${p}results.owner = EXCLUDED.owner);
  GET DIAGNOSTICS v_claimed = ROW_COUNT;
  RETURN jsonb_build_object('claim', CASE WHEN v_claimed = 1 THEN 'claimed' ELSE 'busy' END, 'booking', booked, 'known', v_known,
    'bookings', CASE WHEN v_claimed = 1 THEN v_state END);
END
$fn$;
END $do$`;
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

/**
 * The bookings of an order a book reads: the open ones and those with a SUCCESS (paid, or refunded). A
 * booking settled without one is left out, so what a book reads stays the same size however many
 * attempts the order had before.
 */
function readByBook(p: string): string {
  return `(NOT b.settled OR EXISTS (SELECT 1 FROM ${p}results s WHERE s.correlation_id = b.correlation_id AND s.status = 'SUCCESS'))`;
}

/**
 * Creates a PostgreSQL-backed {@link PaymentStore}: `createPostgresStore(new pg.Pool({ connectionString }))`
 * or `createPostgresStore(new PGlite('./data'))`. The tables are created on first use (see
 * {@link postgresSchema}); a database whose schema is newer than this code is refused.
 */
export function createPostgresStore(db: Queryable, options: PostgresStoreOptions = {}): PostgresStore {
  if (!db || typeof db.query !== 'function') throw new TypeError('createPostgresStore needs a client with query(text, params): a pg Pool or Client, or PGlite.');
  const p = checkPrefix(options.tablePrefix ?? 'wpb_');
  const deadlineMs = checkDeadline(options.deadlineMs ?? 5_000);
  const prepared = options.preparedStatements ?? typeof (db as { connect?: unknown }).connect === 'function';
  const { ready, query } = connect(db, p, { createTables: options.createTables ?? true, deadlineMs, prepared });
  return { ready, ...bookingStatements(query, p), ...resultStatements(query, p) };
}

/** A database's rows for one statement, under the store's deadline, the tables set up first. */
type Query = (text: string, params: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** The store's connection: its set-up (once, tried again after a failure) and its statements under the deadline. */
function connect(
  db: Queryable,
  p: string,
  { createTables, deadlineMs, prepared }: { createTables: boolean; deadlineMs: number; prepared: boolean },
): { ready: () => Promise<void>; query: Query } {
  // Creating or migrating the tables runs once, a dozen statements, several processes queued on one
  // lock: it gets a longer time than a call.
  const setUpDeadlineMs = Math.max(6 * deadlineMs, 30_000);

  async function prepare(): Promise<void> {
    if (createTables) {
      for (let attempt = 1; ; attempt++) {
        try {
          const [meta, ...rest] = postgresSchema(p);
          await db.query(meta!);
          // A database that a newer version of this code migrated is left untouched (and refused below).
          const { rows } = await db.query(`SELECT version FROM ${p}meta WHERE name = 'schema'`);
          if (Number(rows[0]?.version) > SCHEMA_VERSION) break;
          for (const statement of rest) await db.query(statement);
          break;
        } catch (error) {
          await setUpRetry(error, attempt);
        }
      }
    }
    const { rows } = await db.query(`SELECT version FROM ${p}meta WHERE name = 'schema'`);
    const refused = schemaVersionError(p, rows.length === 0 ? undefined : Number(rows[0]!.version), SCHEMA_VERSION, 'postgresSchema');
    if (refused) throw refused;
  }
  const setUp = setUpOnce(prepare);

  async function query(text: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
    // A request waits for the set-up no longer than for any call (it goes on for the next ones):
    // a first request must not hang for the set-up's longer time.
    if (!setUp.done) await withinDeadline(setUp.ready, deadlineMs, postgresOutage);
    const run = prepared
      ? () => (db.query as unknown as (config: { name: string; text: string; values: unknown[] }) => ReturnType<Queryable['query']>)({ name: statementName(text), text, values: params })
      : () => db.query(text, params);
    const deadlock = (error: unknown) => (error as { code?: unknown }).code === '40P01'; // a deadlock's victim
    return withinDeadline(() => retryingDeadlocks(async () => (await run()).rows, deadlock), deadlineMs, postgresOutage);
  }

  return { ready: () => withinDeadline(setUp.ready, setUpDeadlineMs, postgresOutage), query };
}

const names = new Map<string, string>();

/**
 * A prepared statement's name, from its text: the same text always gets the same name, and two texts
 * (two table prefixes, or two versions of this code on one pool) never share one.
 */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    // cyrb53, twice with other seeds: 106 bits, a collision among a few dozen statements is not a concern.
    name = `wpb_${hash53(text, 1).toString(36)}_${hash53(text, 2).toString(36)}`;
    names.set(text, name);
  }
  return name;
}

function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

// The hold's lease row, locked, while it has not ended by the server's clock: a take-over running at the
// same moment either waits for this statement (and then reads what it saved) or went first (and this
// statement sees the new token and refuses); a write that reaches the server after its lease ended (a
// book that gave up on it and cancelled its booking) is refused too.
const fenceSql = (p: string, lease: number) =>
  `SELECT 1 FROM ${p}leases WHERE name = $${lease} AND owner = $${lease + 1} AND token = $${lease + 2} AND lease_until >= ${NOW_MS} FOR UPDATE`;

/** The statements of bookings and leases. */
function bookingStatements(query: Query, p: string): Omit<PaymentStore, ResultMethods> {
  const one = async (where: string, value: string) =>
    toBooking((await query(`SELECT ${COLUMNS} FROM ${p}bookings WHERE ${where} = $1`, [value]))[0]);
  const fence = (lease: number) => fenceSql(p, lease);
  return {
  getBookingByKey: ({ key }) => one('idempotency_key', key),
  findBookingByCorrelationId: ({ correlationId }) => one('correlation_id', correlationId),
  async insertBooking({ booking: b, hold }): Promise<BookingInsertion> {
    // The unique key decides, not a read before the write: of two instances, one row wins. The hold is
    // checked on the locked lease row and the lease ends in the same statement, so a holder that lost
    // the order saves nothing and the next holder finds what the current one saved.
    const rows = await query(
      `WITH fence AS (${fence(13)}),
       fresh AS (SELECT $13::text IS NULL OR EXISTS (SELECT 1 FROM fence) AS ok),
       saved AS (
         INSERT INTO ${p}bookings (${COLUMNS})
         SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, ${NOW_MS} WHERE (SELECT ok FROM fresh)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING booking_id),
       released AS (DELETE FROM ${p}leases WHERE name = $13 AND owner = $14 AND token = $15 RETURNING 1)
       SELECT (SELECT count(*) FROM saved) AS n, (SELECT ok FROM fresh) AS fresh,
         EXISTS (SELECT 1 FROM ${p}bookings WHERE idempotency_key = $4) AS taken`,
      [b.booking_id, b.correlation_id, b.transaction_uuid, b.idempotency_key, b.fingerprint, b.channel,
        JSON.stringify(b.order), b.order_key, b.amount, b.deeplink, b.provider, b.provider_data, hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null],
    );
    const row = rows[0];
    if (Number(row?.n) === 1) return 'saved';
    return row?.fresh === true || row?.taken === true ? 'taken' : 'stale';
  },
  async beginBooking({ key, orderKey, lease, owner, leaseMs }): Promise<BookingOpening> {
    const rows = await query(`SELECT ${p}begin_booking($1, $2, $3, $4, $5) AS opening`, [key, orderKey, lease, owner, Math.ceil(leaseMs)]);
    const opening = rows[0]?.opening as { status: string; token?: number; booking?: Record<string, unknown>; bookings?: Array<Record<string, unknown>> };
    if (opening.status === 'booked') return { status: 'booked', booking: toBooking(opening.booking)! };
    if (opening.status === 'busy') return { status: 'busy' };
    const bookings = opening.bookings ?? [];
    return { status: 'leased', token: Number(opening.token), order: orderState(bookings) };
  },
  async acquireLease({ lease, owner, leaseMs }) {
    const rows = await query(
      `INSERT INTO ${p}leases AS l (name, owner, lease_until, token) VALUES ($1, $2, ${NOW_MS} + $3, nextval('${p}lease_tokens'))
       ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = ${NOW_MS} + $3, token = EXCLUDED.token
       WHERE l.lease_until < ${NOW_MS} OR l.owner = EXCLUDED.owner
       RETURNING l.token`,
      [lease, owner, Math.ceil(leaseMs)],
    );
    return rows[0] === undefined ? undefined : Number(rows[0].token);
  },
  async renewLease({ lease, owner, token, leaseMs }) {
    const rows = await query(
      `UPDATE ${p}leases SET lease_until = ${NOW_MS} + $4 WHERE name = $1 AND owner = $2 AND token = $3 AND lease_until >= ${NOW_MS} RETURNING 1`,
      [lease, owner, token, Math.ceil(leaseMs)],
    );
    return rows.length === 1;
  },
  async releaseLease({ lease, owner, token }) {
    await query(`DELETE FROM ${p}leases WHERE name = $1 AND owner = $2 AND token = $3`, [lease, owner, token]);
  },
  async getBookingState({ bookingId }) {
    const rows = await query(
      `SELECT ${COLUMNS}, (SELECT string_agg(status, ',') FROM ${p}results r
         WHERE r.correlation_id = b.correlation_id AND r.delivered_at IS NOT NULL) AS delivered
       FROM ${p}bookings b WHERE booking_id = $1`,
      [bookingId],
    );
    const row = rows[0];
    if (!row) return undefined;
    const delivered = typeof row.delivered === 'string' ? (row.delivered.split(',') as PaymentStatus[]) : [];
    return { booking: toBooking(row)!, delivered };
  },
  async getOrderState({ orderKey }) {
    // One statement, one snapshot: a result delivered meanwhile (which settles the booking in the same
    // statement as it marks the result) shows up either as an open booking or as the paid one.
    const rows = await query(
      `SELECT ${COLUMNS}, settled, ${paidSql(p)} AS paid
       FROM ${p}bookings b WHERE order_key = $1 AND ${readByBook(p)} ORDER BY created_at, booking_id`,
      [orderKey],
    );
    return orderState(rows);
  },
  };
}

/** The contract's methods that `resultStatements` makes. */
type ResultMethods = 'claimResult' | 'completeResult' | 'releaseResult' | 'getResults' | 'claimOpenBookings' | 'releaseCheck' | 'prune';

/** The statements of results, reconcile's checks and pruning. */
function resultStatements(query: Query, p: string): Pick<PaymentStore, ResultMethods> {
  return {
  async claimResult({ correlationId, status, owner, leaseMs, hold, judge }): Promise<ResultClaimAnswer> {
    // One call of the function: the claim (refused under a stale hold), what stood in its way, and what
    // delivery judges it by, read under the order's paid lease row when judged.
    const rows = await query(`SELECT ${p}claim_result($1, $2, $3, $4, $5, $6, $7, $8) AS answer`, [
      correlationId, status, owner, Math.ceil(leaseMs), hold?.lease ?? null, hold?.owner ?? null, hold?.token ?? null, judge === true,
    ]);
    const answer = rows[0]?.answer as { claim: ResultClaim; booking: Record<string, unknown> | null; known: Array<{ status: string; delivered: boolean }>; bookings?: Array<Record<string, unknown>> | null };
    return {
      claim: answer.claim,
      booking: toBooking(answer.booking ?? undefined),
      known: answer.known.map((r): KnownResult => ({ status: r.status as PaymentStatus, state: r.delivered ? 'delivered' : 'claimed' })),
      ...(answer.bookings && { order: orderState(answer.bookings) }),
    };
  },
  async completeResult({ correlationId, status, owner }) {
    const final = status !== 'BOOKED' && status !== 'PENDING';
    // One statement, so the result and the booking's settlement are recorded together.
    await query(
      `WITH done AS (
         UPDATE ${p}results SET delivered_at = ${NOW_MS} WHERE correlation_id = $1 AND status = $2 AND owner = $3 AND delivered_at IS NULL
         RETURNING correlation_id)
       UPDATE ${p}bookings SET settled = true, settled_at = ${NOW_MS}, settled_status = $2 WHERE $4 AND correlation_id IN (SELECT correlation_id FROM done)`,
      [correlationId, status, owner, final],
    );
  },
  async releaseResult({ correlationId, status, owner }) {
    await query(`DELETE FROM ${p}results WHERE correlation_id = $1 AND status = $2 AND owner = $3 AND delivered_at IS NULL`, [correlationId, status, owner]);
  },
  async getResults({ correlationId }) {
    const rows = await query(`SELECT status, delivered_at IS NOT NULL AS delivered FROM ${p}results WHERE correlation_id = $1`, [correlationId]);
    return rows.map((row): KnownResult => ({ status: row.status as PaymentStatus, state: row.delivered === true ? 'delivered' : 'claimed' }));
  },
  async claimOpenBookings({ olderThanMs, notCheckedForMs, limit, owner, leaseMs, canceledWithinMs }) {
    // Open bookings by the open index, oldest first; or those settled CANCELED since a time, by the index of those.
    const which = canceledWithinMs === undefined
      ? 'NOT settled'
      : `settled_status = 'CANCELED' AND settled_at > (SELECT ${NOW_MS} - $6::bigint)`;
    // SKIP LOCKED: two instances claiming at once take different rows instead of waiting on each other.
    // The age bound is read once (an InitPlan), by the server's clock as created_at, so the open index serves it.
    // The pick is a MATERIALIZED CTE, run once: as `WHERE booking_id IN (pick)`, some plans (statistics
    // of a table just emptied) ran the pick again inside the join and claimed more than the limit.
    const rows = await query(
      `WITH picked AS MATERIALIZED (
         SELECT booking_id AS picked_id FROM ${p}bookings
         WHERE ${which} AND created_at <= (SELECT ${NOW_MS} - $1::bigint) AND check_until < ${NOW_MS} AND checked_at <= ${NOW_MS} - $2
         ORDER BY ${canceledWithinMs === undefined ? 'created_at' : 'settled_at'} LIMIT $5 FOR UPDATE SKIP LOCKED)
       UPDATE ${p}bookings SET check_owner = $3, check_until = ${NOW_MS} + $4, checked_at = ${NOW_MS}
       FROM picked WHERE booking_id = picked_id
       RETURNING ${COLUMNS}`,
      [Math.ceil(olderThanMs), Math.ceil(notCheckedForMs), owner, Math.ceil(leaseMs), limit, ...(canceledWithinMs === undefined ? [] : [Math.ceil(canceledWithinMs)])],
    );
    return rows.map((row) => toBooking(row)!).sort((a, b) => a.created_at - b.created_at);
  },
  async releaseCheck({ bookingId, owner }) {
    await query(`UPDATE ${p}bookings SET check_until = 0 WHERE booking_id = $1 AND check_owner = $2`, [bookingId, owner]);
  },
  async prune({ before }) {
    const rows = await query(
      `WITH gone AS (DELETE FROM ${p}bookings WHERE created_at < $1 RETURNING correlation_id),
            results AS (DELETE FROM ${p}results WHERE created_at < $1 OR correlation_id IN (SELECT correlation_id FROM gone) RETURNING 1),
            leases AS (DELETE FROM ${p}leases WHERE lease_until < LEAST($1, ${NOW_MS}) RETURNING 1)
       SELECT count(*) AS n FROM gone`,
      [before],
    );
    return Number(rows[0]?.n ?? 0);
  },
  };
}
