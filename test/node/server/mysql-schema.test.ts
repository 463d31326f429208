/**
 * The MySQL store's schema as a merchant runs it by hand: the statements of `mysqlSchema()` under a
 * prefix of the merchant's (checked, and the only one they name), each procedure the code calls
 * among them, and the version last. Then on a real MariaDB: run once they build the tables,
 * procedures and version; run again every statement succeeds or fails with the two errors its
 * documentation names (1304, 1060); and `paidSql` reads a booking paid exactly while a SUCCESS of it
 * stands unrefunded.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type mysql from 'mysql2/promise';
import { MYSQL_SCHEMA_VERSION, PROCEDURES, mysqlSchema, paidSql } from '../../../src/server/mysql-schema.js';
import { freshDatabase, newPool, stopServer } from './mysql/mariadb-server.js';

/** The errors a second run may meet: the procedure exists (1304), the column exists (1060). */
const RERUN_ERRORS = [1304, 1060];

describe('mysqlSchema, without a server', () => {
  test("every statement names the merchant's prefix and no other; no DELIMITER is needed", () => {
    const statements = mysqlSchema('shop_');
    assert.ok(statements.length > 10);
    for (const statement of statements) {
      assert.doesNotMatch(statement, /\bwpb_/, 'the default prefix leaks into a statement');
      assert.doesNotMatch(statement, /DELIMITER/);
      assert.match(statement, /\bshop_\w+/, statement.slice(0, 80));
    }
    const created = new Set(statements.flatMap((s) => /^CREATE PROCEDURE (\w+)\(/.exec(s)?.[1] ?? []));
    const called = new Set(statements.flatMap((s) => [...s.matchAll(/\bCALL (\w+)\(/g)].map((m) => m[1]!)));
    assert.ok(called.size > 0);
    for (const name of called) assert.ok(created.has(name), `${name} is called by a procedure but not created`);
    assert.deepEqual(mysqlSchema(), mysqlSchema('wpb_'), 'wpb_ by default');
  });

  test('creates every procedure the code calls, each once, and ends by setting the version', () => {
    const statements = mysqlSchema('shop_');
    for (const name of Object.values(PROCEDURES)) {
      assert.equal(statements.filter((s) => s.startsWith(`CREATE PROCEDURE shop_${name}(`)).length, 1, name);
    }
    assert.equal(statements.at(-1), `UPDATE shop_meta SET version = ${MYSQL_SCHEMA_VERSION} WHERE name = 'schema' AND version < ${MYSQL_SCHEMA_VERSION}`);
  });

  test('refuses a prefix that is not lower-case letters, digits and _, before any SQL is written', () => {
    for (const prefix of ['Shop_', 'shop-', '1shop_', 'shop_; DROP TABLE x', 'a'.repeat(32), '']) {
      assert.throws(() => mysqlSchema(prefix), /tablePrefix must be lower-case letters, digits and "_"/, JSON.stringify(prefix));
    }
  });

  test("paidSql reads the prefix's results of the booking b", () => {
    const sql = paidSql('shop_');
    assert.match(sql, /FROM shop_results s WHERE s\.correlation_id = b\.correlation_id AND s\.status = 'SUCCESS'/);
    assert.match(sql, /r\.status = 'REVERTED' AND r\.delivered_at IS NOT NULL/);
  });
});

describe('mysqlSchema on MariaDB', () => {
  let pool: mysql.Pool | undefined;
  after(async () => {
    await pool?.end();
    await stopServer();
  });

  /** Runs every statement; the error numbers met, in order. */
  async function run(statements: readonly string[]): Promise<number[]> {
    const met: number[] = [];
    for (const statement of statements) {
      try {
        await pool!.query(statement);
      } catch (error) {
        const errno = (error as { errno?: number }).errno;
        assert.ok(errno !== undefined && RERUN_ERRORS.includes(errno), `${statement.slice(0, 80)}: ${String(error)}`);
        met.push(errno);
      }
    }
    return met;
  }

  test('run once, then again: the tables, procedures and version are built, and a rerun meets only the documented errors', async () => {
    pool = newPool(await freshDatabase(), { multipleStatements: false });
    const statements = mysqlSchema('m_');
    const first = await run(statements);
    assert.deepEqual([...new Set(first)], [1060], 'on a new database only the version-2 and version-4 columns exist already');
    const second = await run(statements);
    assert.ok(second.includes(1304), 'the procedures exist on a rerun');
    const [meta] = await pool.query('SELECT name, version FROM m_meta');
    assert.deepEqual(meta, [{ name: 'schema', version: MYSQL_SCHEMA_VERSION }]);
    const [routines] = await pool.query("SELECT ROUTINE_NAME AS name FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = DATABASE() AND ROUTINE_TYPE = 'PROCEDURE'");
    const names = new Set((routines as Array<{ name: string }>).map((row) => row.name));
    for (const name of Object.values(PROCEDURES)) assert.ok(names.has(`m_${name}`), `m_${name} exists`);
  });

  test('paidSql: unpaid, paid once a SUCCESS stands, unpaid again once a REVERTED is delivered (not merely claimed)', async () => {
    assert.ok(pool, 'the schema test ran first');
    await pool.query(
      `INSERT INTO m_bookings (booking_id, correlation_id, transaction_uuid, idempotency_key, fingerprint, channel, order_ref, order_key, amount, deeplink, created_at)
       VALUES ('bk-1', 'cr-1', 'tx-1', 'key-1', 'f', 'app', '{}', 'o-1', 10, '', 0)`,
    );
    const paid = async (): Promise<number> => {
      const [rows] = await pool!.query(`SELECT ${paidSql('m_')} AS paid FROM m_bookings b WHERE booking_id = 'bk-1'`);
      return Number((rows as Array<{ paid: unknown }>)[0]!.paid);
    };
    assert.equal(await paid(), 0);
    await pool.query(`INSERT INTO m_results (correlation_id, status, owner, lease_until, delivered_at, created_at) VALUES ('cr-1', 'SUCCESS', 'a', 0, NULL, 0)`);
    assert.equal(await paid(), 1, 'a SUCCESS claimed for delivery counts');
    await pool.query(`INSERT INTO m_results (correlation_id, status, owner, lease_until, delivered_at, created_at) VALUES ('cr-1', 'REVERTED', 'a', 0, NULL, 0)`);
    assert.equal(await paid(), 1, 'a refund not yet delivered does not');
    await pool.query(`UPDATE m_results SET delivered_at = 1 WHERE status = 'REVERTED'`);
    assert.equal(await paid(), 0);
  });
});
