/** The checker's command line as functions: arguments to options, a clause to its line, the exit codes. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { formatResult, parseCheckArgs, runCheckCommand } from '../../../src/check/command.js';
import { NO_RECONCILE_WARNING } from '../../../src/check/run.js';
import { AMOUNT, freePort, PREFIX, startKitProxy } from './support.js';

const REQUIRED = ['--endpoint', 'http://127.0.0.1:8080/api/pay', '--sandbox-port', '4099', '--order-prefix', 'CHK-', '--amount', '1000.5', '--no-reconcile'];
const WITHOUT_RECONCILE = REQUIRED.slice(0, -1);

test('the required flags become options; repeatable and optional ones are carried', () => {
  assert.deepEqual(parseCheckArgs(REQUIRED), {
    help: false,
    json: false,
    options: { endpoint: 'http://127.0.0.1:8080/api/pay', sandboxPort: 4099, orderPrefix: 'CHK-', amount: 1000.5, reconcile: false },
  });
  const full = parseCheckArgs([
    ...WITHOUT_RECONCILE,
    '--json',
    '--provider',
    'epay',
    '--reconcile-command',
    'php proxy.php reconcile',
    '--callback-origin',
    'https://a.example',
    '--callback-origin',
    'https://b.example',
  ]);
  assert.ok(!full.help);
  assert.equal(full.json, true);
  assert.equal(full.options.provider, 'epay');
  assert.equal(full.options.reconcile, 'php proxy.php reconcile');
  assert.deepEqual(full.options.callbackOrigins, ['https://a.example', 'https://b.example']);
  assert.deepEqual(parseCheckArgs(['-h']), { help: true });
  assert.deepEqual(parseCheckArgs(['--help', '--amount', 'nonsense']), { help: true }, 'help wins over bad values');
});

test('a bad command line is refused naming the flag and why', () => {
  const refused = (args: string[], message: RegExp) => assert.throws(() => parseCheckArgs(args), { name: 'CheckCommandError', message });
  refused(REQUIRED.slice(2), /^--endpoint is required\.$/);
  refused([...REQUIRED.slice(0, 6)], /^--amount is required\.$/);
  refused([...REQUIRED.slice(0, 2), '--sandbox-port', '80a', ...REQUIRED.slice(4)], /--sandbox-port must be a whole number from 1 to 65535; got "80a"/);
  refused([...REQUIRED.slice(0, 2), '--sandbox-port', '70000', ...REQUIRED.slice(4)], /--sandbox-port must be a whole number from 1 to 65535; got 70000/);
  refused([...REQUIRED.slice(0, 6), '--amount', '12.345'], /--amount must be a positive amount with at most two decimals; got "12.345"/);
  refused([...WITHOUT_RECONCILE, '--reconcile-command', '  '], /^--reconcile-command is empty\.$/);
  refused([...REQUIRED, '--provider', 'paypal'], /--provider must be "intent", "epay" or "khalti"; got "paypal"/);
  refused([...REQUIRED, '--callback-origin', 'https://a.example/path'], /--callback-origin must be an origin/);
  refused([...REQUIRED, '--verbose'], /--verbose/);
  refused([...REQUIRED, 'extra'], /extra/);
});

test('without --reconcile-command the command line is refused unless --no-reconcile says the backend has none; both at once are refused', () => {
  assert.throws(() => parseCheckArgs(WITHOUT_RECONCILE), {
    name: 'CheckCommandError',
    message: /^--reconcile-command <cmd> \(how the proxy reconciles once\) is required; or --no-reconcile for a backend that has none, where payments whose shopper never came back stay unsettled\.$/,
  });
  assert.throws(() => parseCheckArgs([...REQUIRED, '--reconcile-command', 'php proxy.php reconcile']), { name: 'CheckCommandError', message: /exclude each other/ });
  const told = parseCheckArgs(REQUIRED);
  assert.ok(!told.help);
  assert.equal(told.options.reconcile, false);
});

test("a clause's line: PASS, FAIL with its detail, SKIP with why, scenarios after the title, never a control character", () => {
  assert.equal(formatResult({ id: 'book-app', title: 'books', ok: true, detail: 'note' }), 'PASS book-app  books');
  assert.equal(formatResult({ id: 'cancel-paid', title: 'refuses', ok: false, detail: 'sent: x; got: y', scenarios: ['WPS-001', 'WPS-007'] }), 'FAIL cancel-paid  refuses [WPS-001, WPS-007]: sent: x; got: y');
  assert.equal(formatResult({ id: 'reconcile-asks-service', title: 'asks', ok: false, skipped: true, detail: 'no command' }), 'SKIP reconcile-asks-service  asks: no command');
  assert.equal(formatResult({ id: 'no-store', title: 't', ok: false, detail: 'got \u001b[2J\r\nPASS' }), 'FAIL no-store  t: got \\u001b[2J\\u000d\\u000aPASS');
});

/** Output lines of one run of the command. */
function sink() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, output: { out: (line: string) => void out.push(line), err: (line: string) => void err.push(line) } };
}

test('runCheckCommand: --help prints the usage and exits 0; a bad command line exits 2 on stderr', async () => {
  const help = sink();
  assert.equal(await runCheckCommand(['--help'], help.output), 0);
  assert.match(help.out.join('\n'), /^Usage: wallet-pay-check --endpoint <url>/);
  assert.deepEqual(help.err, []);
  const bad = sink();
  assert.equal(await runCheckCommand(['--endpoint', 'ftp://x'], bad.output), 2);
  assert.deepEqual(bad.out, []);
  assert.deepEqual(bad.err, ['wallet-pay-check: --sandbox-port is required.', 'Run wallet-pay-check --help for the usage.']);
});

test('runCheckCommand: a production-looking endpoint is warned about, and a busy sandbox port exits 2 naming it', async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const port = (busy.address() as { port: number }).port;
  try {
    const run = sink();
    const code = await runCheckCommand(['--endpoint', 'https://shop.example.com/api/pay', '--sandbox-port', String(port), '--order-prefix', 'CHK-', '--amount', '10', '--reconcile-command', 'true'], run.output);
    assert.equal(code, 2);
    assert.match(run.err[0]!, /^warning: https:\/\/shop\.example\.com looks like production/);
    assert.equal(run.err[1], `wallet-pay-check: could not start the sandbox: port ${port} is already in use`);
    assert.deepEqual(run.out, []);
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
});

test('runCheckCommand against the kit: no reconcile flag exits 2; --no-reconcile passes with the clause skipped and the risk said; --reconcile-command runs it', async () => {
  const port = await freePort();
  const proxy = await startKitProxy(port);
  const args = ['--endpoint', proxy.endpoint, '--sandbox-port', String(port), '--order-prefix', PREFIX, '--amount', String(AMOUNT)];
  try {
    const refused = sink();
    assert.equal(await runCheckCommand(args, refused.output), 2);
    assert.match(refused.err[0]!, /--reconcile-command <cmd> .* is required; or --no-reconcile/);
    const told = sink();
    assert.equal(await runCheckCommand([...args, '--no-reconcile', '--json'], told.output), 0, told.err.join('\n'));
    assert.equal(told.err[0], NO_RECONCILE_WARNING);
    const report = JSON.parse(told.out.join('\n')) as { clauses: Array<{ id: string; skipped?: boolean; detail: string }>; failed: number; warnings: string[] };
    assert.deepEqual(report.warnings, [NO_RECONCILE_WARNING]);
    const clause = report.clauses.find((c) => c.id === 'reconcile-asks-service')!;
    assert.equal(clause.skipped, true);
    assert.match(clause.detail, /no reconciliation \(--no-reconcile\): payments whose shopper never came back stay unsettled/);
    const proved = sink();
    assert.equal(await runCheckCommand([...args, '--reconcile-command', proxy.reconcileCommand], proved.output), 0, proved.out.join('\n'));
    assert.ok(proved.out.some((line) => line.startsWith('PASS reconcile-asks-service')), proved.out.join('\n'));
    assert.deepEqual(proved.err, []);
  } finally {
    await proxy.close();
  }
});
