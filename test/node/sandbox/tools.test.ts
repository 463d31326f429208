/**
 * The command line's bench tools, run as real processes: `scenarios` (checked against docs/sandbox.md's
 * table), `clock` and `scenario` talking to a running sandbox, `--data DIR` keeping bookings across a
 * restart, and the new flags' errors.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../../../src/sandbox/index.js';
import { SCENARIOS, magicAmountOf } from '../../../src/sandbox/esewa-intent/scenarios.js';
import { parseCommandLine } from '../../../src/sandbox/command.js';
import { runTool, UsageError } from '../../../src/sandbox/tools.js';
import { book, status } from './support.js';
import { bundled } from '../../support/bundled.js';
import { pollUntil } from '../../support/poll.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = await bundled(join(ROOT, 'src/sandbox/cli.ts'));
const dir = mkdtempSync(join(tmpdir(), 'wpb-tools-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]) {
  const child = spawn(process.execPath, ['--enable-source-maps', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  void exited.then(() => clearTimeout(timer));
  return {
    child,
    exited,
    out: () => out,
    err: () => err,
    /** Resolves with stdout once it matches, at most 30 s. */
    waitFor: async (pattern: RegExp) => {
      await pollUntil(
        () => {
          if (pattern.test(out)) return true;
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode} before ${pattern}: ${err}`);
          return false;
        },
        { what: `${pattern} on stdout (so far: ${out}${err})`, timeoutMs: 30_000, intervalMs: 50 },
      );
      return out;
    },
  };
}

async function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = start(args);
  const code = await child.exited;
  return { code, out: child.out(), err: child.err() };
}

test('`scenarios` lists the catalogue; `--json` gives it whole; docs/sandbox.md\'s table is the same catalogue', async () => {
  const listed = await run(['scenarios']);
  assert.equal(listed.code, 0, listed.err);
  for (const s of SCENARIOS) assert.match(listed.out, new RegExp(`^${s.id}  ${s.name} +${magicAmountOf(s)} `, 'm'));
  const json = await run(['scenarios', '--json']);
  const catalogue = JSON.parse(json.out) as Array<{ id: string; name: string; summary: string; magic_amount: number }>;
  assert.deepEqual(catalogue.map((s) => s.id), SCENARIOS.map((s) => s.id));

  const docs = readFileSync(join(ROOT, 'docs/sandbox.md'), 'utf8').split('\n');
  const start = docs.findIndex((line) => line.startsWith('| ID | Name |'));
  assert.ok(start > 0, 'docs/sandbox.md has the scenario table');
  const rows = docs.slice(start + 2).filter((line, index, all) => all.slice(0, index + 1).every((l) => l.startsWith('|')));
  const documented = rows.map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()));
  assert.deepEqual(
    documented.map(([id, name, amount, summary]) => ({ id: id!.replace(/`/g, ''), name: name!.replace(/`/g, ''), magic_amount: Number(amount), summary })),
    catalogue.map(({ id, name, magic_amount, summary }) => ({ id, name, magic_amount, summary })),
  );
});

test('`clock` and `scenario` steer a running sandbox over HTTP; an unreachable one is exit 1 with the fix', async () => {
  const sandbox = await startSandbox({ productCode: 'TOOL01' });
  try {
    const before = sandbox.clock.now();
    const advanced = await run(['clock', 'advance', '15m', '--url', sandbox.baseUrl]);
    assert.equal(advanced.code, 0, advanced.err);
    assert.match(advanced.out, /^sandbox clock: \d{4}-\d\d-\d\dT[\d:.]+Z \(\+15 min from real time\)$/m);
    assert.ok(sandbox.clock.now() - before >= 900_000);
    const shown = await run(['clock', '--url', sandbox.baseUrl]);
    assert.match(shown.out, /\+15 min from real time/);
    const set = await run(['clock', 'set', '2099-01-01T00:00:00Z', '--url', sandbox.baseUrl]);
    assert.match(set.out, /sandbox clock: 2099-01-01T00:00:0/);
    const backwards = await run(['clock', 'set', '2001-01-01T00:00:00Z', '--url', sandbox.baseUrl]);
    assert.equal(backwards.code, 1);
    assert.match(backwards.err, /the sandbox refused clock set 2001-01-01T00:00:00Z: The clock moves forward only.*\(e\.g\. wallet-pay-sandbox clock set with a time after/);

    const sticky = await run(['scenario', 'WPS-004', '--url', sandbox.baseUrl]);
    assert.equal(sticky.code, 0, sticky.err);
    assert.match(sticky.out, /sticky scenarios: TOOL01 WPS-004/);
    const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'TOOL01' });
    assert.equal(sandbox.getBooking(body.data!['booking_id']!)?.scenario, 'WPS-004');
    assert.match((await run(['scenario', 'none', '--url', sandbox.baseUrl])).out, /sticky scenarios: none/);
    // An ID the catalogue lacks is refused before any request, as a bad argument.
    const unknown = await run(['scenario', 'WPS-404', '--url', sandbox.baseUrl]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.err, /"WPS-404" is not a scenario ID/);

    const usage = await run(['clock', 'advance']);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /clock takes nothing, "advance <duration>"/);
  } finally {
    await sandbox.close();
  }
  const gone = await run(['clock', '--url', 'http://127.0.0.1:9']);
  assert.equal(gone.code, 1);
  assert.match(gone.err, /could not reach the sandbox at http:\/\/127.0.0.1:9 .*is it running\? Give its address with --url/);
});

test('`--data DIR` keeps bookings, statuses, the clock and sticky scenarios across a restart of the command', async () => {
  const data = join(dir, 'data');
  const first = start(['--data', data, '--port', '0', '--links-port', '0', '--product-code', 'DATA01']);
  const banner = await first.waitFor(/serviceUrl: +(http:\/\/\S+)/);
  assert.match(banner, new RegExp(`data: +${join(data, 'sandbox.json').replace(/[.\\/]/g, '\\$&')} \\(kept across restarts\\)`));
  const baseUrl = /serviceUrl: +(http:\/\/\S+)/.exec(banner)![1]!;
  const { body } = await book(baseUrl, { key: 'sandbox-access-key', product: 'DATA01', amount: 9016 });
  const id = body.data!['booking_id']!;
  assert.equal((await run(['scenario', 'WPS-002', '--product-code', 'DATA01', '--url', baseUrl])).code, 0);
  assert.equal((await run(['clock', 'advance', '1d', '--url', baseUrl])).code, 0);
  first.child.kill('SIGTERM');
  assert.equal(await first.exited, 0);

  const second = start(['--data', data, '--port', '0', '--links-port', '0', '--product-code', 'DATA01']);
  try {
    const again = /serviceUrl: +(http:\/\/\S+)/.exec(await second.waitFor(/serviceUrl: +(http:\/\/\S+)/))![1]!;
    const answer = (await (await status(again, 'sandbox-access-key', 'DATA01', id, body.data!['correlation_id']!)).json()) as { data: { status: string } };
    // The clock came back a day ahead, so the 15-minute booking reads expired; the sticky scenario is kept.
    assert.equal(answer.data.status, 'CANCELED');
    assert.match((await run(['clock', '--url', again])).out, /\+1440 min from real time/);
    assert.match((await run(['scenario', 'WPS-002', '--product-code', 'DATA01', '--url', again])).out, /DATA01 WPS-002/);
    const next = await book(again, { key: 'sandbox-access-key', product: 'DATA01' });
    assert.equal(next.status, 200);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
});

test('the new flags: --chaos with --seed (printed at start), --profile, --data; and their errors', async () => {
  const parsed = parseCommandLine(['--chaos', 'timeouts=0.16,errors=0.05,latency=200ms', '--seed', '42', '--profile', 'esewa-uat', '--data', '/tmp/x']);
  assert.ok(!parsed.help);
  assert.deepEqual(parsed.options.chaos, { timeouts: 0.16, errors: 0.05, latencyMs: 200, seed: 42 });
  assert.equal(parsed.options.profile, 'esewa-uat');
  assert.deepEqual(parsed.options.productCode, ['INTENT']);
  assert.equal(parsed.options.stateFile, join('/tmp/x', 'sandbox.json'));
  for (const [args, message] of [
    [['--chaos', 'boom=1'], /--chaos: chaos knows timeouts, errors, latency and hold/],
    [['--seed', '4'], /--seed is the seed of --chaos; give --chaos too/],
    [['--chaos', 'errors=0.1', '--seed', 'x'], /--seed must be a whole number/],
    [['--profile', 'prod'], /--profile must be one of spec, esewa-uat; got "prod"/],
  ] as const) {
    const result = await run([...args]);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.err, message);
  }
  const chaotic = start(['--port', '0', '--links-port', '0', '--chaos', 'errors=0.5', '--seed', '9']);
  try {
    assert.match(await chaotic.waitFor(/Press Ctrl\+C/), /chaos: timeouts=0,errors=0.5,latency=0ms,hold=10000ms seed 9/);
  } finally {
    chaotic.child.kill('SIGTERM');
    await chaotic.exited;
  }
});

test("a provider's tool comes from the table the command line passes; a name missing from it is a usage error", async () => {
  const lines: string[] = [];
  await runTool('callbacks', ['--json'], { out: (line) => void lines.push(line) }, { callbacks: async (args, io) => io.out(`callbacks ${args.join(' ')}`) });
  assert.deepEqual(lines, ['callbacks --json']);
  await assert.rejects(runTool('run', [], { out: () => undefined }, {}), (error: Error) => error instanceof UsageError && error.message === '"run" is not a tool; the tools are scenarios, clock, scenario, callbacks, run.');
});
