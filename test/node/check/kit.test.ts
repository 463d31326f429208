/**
 * The checker against the kit itself: node:http with the memory store and with PostgreSQL, every clause
 * passes. Also the command line's output: one line per clause, the plain summary last, `--json`.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import pg from 'pg';
import type { CheckReport } from '../../../src/check/index.js';
import { createPostgresStore } from '../../../src/server/postgres.js';
import { createMemoryStore } from '../../../src/server/index.js';
import { SCENARIOS } from '../../../src/sandbox/esewa-intent/scenarios.js';
import { freshDatabase, stopServer } from '../server/postgres/pg-server.js';
import { AMOUNT, checkProxy, freePort, kitUnderTest, PREFIX, serve, startKitProxy } from './support.js';
import { bundled } from '../../support/bundled.js';
import { clausesFor } from '../../../src/check/clauses.js';

const INTENT_CLAUSES = clausesFor();

const pools: pg.Pool[] = [];
after(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await stopServer();
});

const failures = (report: CheckReport) => report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`);

describe('the checker against the kit', () => {
  test('every clause passes on node:http with the memory store', async () => {
    const { report, ms } = await checkProxy((port) => kitUnderTest(port, { store: createMemoryStore() }));
    assert.deepEqual(failures(report), []);
    assert.equal(report.passed, INTENT_CLAUSES.length);
    assert.deepEqual(report.clauses.map((c) => c.id), INTENT_CLAUSES.map((c) => c.id));
    // The report names the scenarios each clause drove, every one an ID of the sandbox's catalogue.
    const driven = Object.fromEntries(report.clauses.filter((c) => c.scenarios).map((c) => [c.id, c.scenarios]));
    assert.deepEqual(driven['status-follows-service'], ['WPS-001']);
    assert.deepEqual(driven['reconcile-asks-service'], ['WPS-007']);
    assert.equal(report.clauses.find((c) => c.id === 'book-app')!.scenarios, undefined);
    const known = new Set(SCENARIOS.map((s) => s.id));
    for (const [id, scenarios] of Object.entries(driven)) for (const scenario of scenarios!) assert.ok(known.has(scenario), `${id}: ${scenario}`);
    console.log(`checker against the kit (memory store): ${ms} ms`);
  });

  test('every clause passes on node:http with the PostgreSQL store', async () => {
    const pool = new pg.Pool({ connectionString: await freshDatabase(), max: 10 });
    // An idle connection the server ends (it is stopped after the file) must not crash the run.
    pool.on('error', () => {});
    pools.push(pool);
    const { report, ms } = await checkProxy((port) => kitUnderTest(port, { store: createPostgresStore(pool) }));
    assert.deepEqual(failures(report), []);
    console.log(`checker against the kit (PostgreSQL store): ${ms} ms`);
  });
});

const cli = await bundled(new URL('../../../src/check/cli.ts', import.meta.url));

function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--enable-source-maps', cli, ...args], { timeout: 180_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

describe('wallet-pay-check on the command line', () => {
  test('prints one line per clause and ends with the plain summary; exit 0', async () => {
    const port = await freePort();
    const proxy = await startKitProxy(port, { store: createMemoryStore() });
    try {
      const { code, stdout, stderr } = await runCli(['--endpoint', proxy.endpoint, '--sandbox-port', String(port), '--order-prefix', PREFIX, '--amount', String(AMOUNT), '--reconcile-command', proxy.reconcileCommand]);
      assert.equal(code, 0, stderr);
      const lines = stdout.trim().split('\n');
      assert.equal(lines.length, INTENT_CLAUSES.length + 1);
      INTENT_CLAUSES.forEach((clause, i) => assert.match(lines[i]!, new RegExp(`^PASS ${clause.id}  `)));
      assert.equal(lines.at(-1), `${INTENT_CLAUSES.length} passed, 0 failed`);
      // Each line names the sandbox scenarios its clause drove, by their catalogue IDs.
      const line = (id: string) => lines.find((l) => l.startsWith(`PASS ${id}  `))!;
      assert.match(line('status-follows-service'), / \[WPS-001\]$/);
      assert.match(line('reconcile-asks-service'), / \[WPS-007\]$/);
      assert.doesNotMatch(line('book-app'), /WPS-/);
    } finally {
      await proxy.close();
    }
  });

  test('--json prints the report as one document on stdout, the summary last on stderr; a failure exits 1', async () => {
    const port = await freePort();
    // A proxy that is not there: every clause fails with "no answer", and says what it sent.
    const { code, stdout, stderr } = await runCli(['--endpoint', `http://127.0.0.1:${await freePort()}/pay`, '--sandbox-port', String(port), '--order-prefix', PREFIX, '--amount', '1000', '--no-reconcile', '--json']);
    assert.equal(code, 1);
    const report = JSON.parse(stdout) as { clauses: Array<{ id: string; title: string; ok: boolean; skipped?: boolean; detail: string }>; passed: number; failed: number; skipped: number };
    assert.deepEqual(Object.keys(report), ['clauses', 'passed', 'failed', 'skipped', 'warnings']);
    assert.deepEqual(Object.keys(report.clauses[0]!), ['id', 'title', 'ok', 'detail']);
    // With --no-reconcile, the reconciliation clause is skipped and says what that risks; a clause that
    // reads a paid order from IP-412 or /order is not judged once the clause of that rule failed.
    const skipped = report.clauses.filter((c) => c.skipped);
    assert.deepEqual(skipped.map((c) => c.id), ['order-paid-before-callback', 'failed-after-success', 'paid-after-cancel', 'reconcile-asks-service']);
    assert.match(skipped[0]!.detail, /^skipped: not judged: .*order-paid failed/);
    assert.match(skipped[1]!.detail, /^skipped: not judged: .*paid-order-refused failed/);
    assert.match(skipped[2]!.detail, /^skipped: not judged: .*order-paid failed/);
    assert.match(skipped[3]!.detail, /^skipped: the backend has no reconciliation \(--no-reconcile\)/);
    assert.equal(report.failed, INTENT_CLAUSES.length - 4);
    assert.match(report.clauses[0]!.detail, /sent: POST \/pay\/book .*got: no answer.*breaks: /);
    assert.equal(stderr.trim().split('\n').at(-1), `0 passed, ${INTENT_CLAUSES.length - 4} failed, 4 skipped`);
  });

  test('a sandbox port already in use exits 2 and says so', async () => {
    const busy = await serve((_req, res) => res.end());
    try {
      const { code, stderr } = await runCli(['--endpoint', 'http://127.0.0.1:1/pay', '--sandbox-port', String(busy.port), '--order-prefix', 'A-', '--amount', '10', '--no-reconcile']);
      assert.equal(code, 2);
      assert.match(stderr, new RegExp(`could not start the sandbox: port ${busy.port} is already in use`));
    } finally {
      await busy.close();
    }
  });

  test('a bad command line exits 2 and names the flag', async () => {
    const missing = await runCli(['--endpoint', 'http://127.0.0.1:1/pay', '--sandbox-port', '4010', '--amount', '10']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /--order-prefix is required/);
    const amount = await runCli(['--endpoint', 'http://127.0.0.1:1/pay', '--sandbox-port', '4010', '--order-prefix', 'A-', '--amount', '10.125']);
    assert.equal(amount.code, 2);
    assert.match(amount.stderr, /--amount must be a positive amount with at most two decimals; got "10.125"/);
    const endpoint = await runCli(['--endpoint', 'ftp://x', '--sandbox-port', '4010', '--order-prefix', 'A-', '--amount', '10']);
    assert.equal(endpoint.code, 2);
    assert.match(endpoint.stderr, /--endpoint must be an http\(s\) URL/);
    const { parseCheckArgs } = await import('../../../src/check/command.js');
    const base = ['--endpoint', 'http://127.0.0.1:1/pay', '--sandbox-port', '4020', '--order-prefix', 'A-', '--amount', '10'];
    assert.throws(() => parseCheckArgs([...base, '--callback-origin', 'https://a.example']), /--reconcile-command <cmd> .* is required; or --no-reconcile/);
    assert.throws(() => parseCheckArgs([...base, '--no-reconcile', '--callback-origin', 'https://shop.example/path']), /--callback-origin must be an origin/);
    assert.throws(() => parseCheckArgs([...base, '--reconcile-command', ' ']), /--reconcile-command is empty/);
    const parsed = parseCheckArgs([...base, '--callback-origin', 'https://a.example', '--callback-origin', 'https://b.example', '--reconcile-command', 'php proxy.php reconcile']);
    assert.ok(!parsed.help && parsed.options.reconcile === 'php proxy.php reconcile');
    assert.deepEqual(!parsed.help && parsed.options.callbackOrigins, ['https://a.example', 'https://b.example']);
  });
});

test('wallet-pay-button/check exports running the check and its clauses, not its command line', async () => {
  const face = await import('../../../src/check/index.js');
  assert.deepEqual(Object.keys(face).sort(), ['CLAUSES', 'runCheck']);
});

describe('the checker\'s options', () => {
  test('amounts with at most two decimals pass, others and bad endpoints or prefixes are refused by name', async () => {
    const { checkOptions } = await import('../../../src/check/run.js');
    const base = { endpoint: 'http://127.0.0.1:1/pay', sandboxPort: 4010, orderPrefix: 'CHK-', amount: 1, reconcile: false as const };
    for (const amount of [0.29, 1250.5, 1000, 999_999_999.99]) assert.doesNotThrow(() => checkOptions({ ...base, amount }), String(amount));
    for (const amount of [0, -1, 10.125, Number.NaN, 1e12]) assert.throws(() => checkOptions({ ...base, amount }), /--amount/, String(amount));
    assert.throws(() => checkOptions({ ...base, orderPrefix: '' }), /--order-prefix/);
    assert.throws(() => checkOptions({ ...base, sandboxPort: 0 }), /--sandbox-port/);
    assert.throws(() => checkOptions({ ...base, endpoint: 'not a url' }), /--endpoint/);
    assert.throws(() => checkOptions({ ...base, provider: 'paypal' as never }), /--provider must be "intent", "epay" or "khalti"/);
    assert.doesNotThrow(() => checkOptions({ ...base, provider: 'epay' }));
    assert.doesNotThrow(() => checkOptions({ ...base, provider: 'khalti' }));
    const { parseCheckArgs } = await import('../../../src/check/command.js');
    const args = ['--endpoint', 'http://127.0.0.1:1/pay', '--sandbox-port', '4020', '--order-prefix', 'A-', '--amount', '10', '--no-reconcile'];
    const parsed = parseCheckArgs([...args, '--provider', 'epay']);
    assert.equal(!parsed.help && parsed.options.provider, 'epay');
    assert.throws(() => parseCheckArgs([...args, '--provider', 'stripe']), /--provider must be/);
  });
});
