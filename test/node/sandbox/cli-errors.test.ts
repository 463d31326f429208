/**
 * Every error of `wallet-pay-sandbox` names the argument and gives a right one: the start's flags and
 * each tool's bad input (`clock advance -5m` once said "Unknown option '-5'"), and the example each
 * error gives is itself accepted. In process through `runCommandLine`, with one real process per exit
 * code; refusals from a running sandbox come from a real one on loopback.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { CommandLineError, parseCommandLine, runCommandLine, startErrorMessage } from '../../../src/sandbox/command.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { bundled } from '../../support/bundled.js';

const CLI = await bundled(new URL('../../../src/sandbox/cli.ts', import.meta.url));

/** The message `args` fail with (a CommandLineError), or a failure naming what happened instead. */
async function refusal(args: string[]): Promise<string> {
  const out: string[] = [];
  try {
    await runCommandLine(args, { out: (line) => out.push(line), err: (line) => out.push(line) });
  } catch (error) {
    assert.ok(error instanceof CommandLineError, `${args.join(' ')}: ${String(error)}`);
    return error.message;
  }
  assert.fail(`${args.join(' ')} was accepted: ${out.join('\n')}`);
}

/** The right example an error gives: what follows its last "e.g.". */
function exampleOf(message: string): string {
  const example = /e\.g\. (.+?)\.?\)?$/.exec(message)?.[1];
  assert.ok(example, `no example in: ${message}`);
  return example;
}

describe('starting the sandbox: each flag error names the flag and a right value, which parses', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--port', 'abc'], /^--port must be a whole number from 0 to 65535; got "abc"; e\.g\. --port 4010\.$/],
    [['--links-port', '99999'], /^--links-port must be .*; e\.g\. --links-port 4011\.$/],
    [['--port', '4500', '--links-port', '4500'], /^--port and --links-port must differ; both are 4500; e\.g\. --links-port 4011\.$/],
    [['--access-key', ''], /^--access-key must not be empty; e\.g\. --access-key sandbox-access-key\.$/],
    [['--product-code', 'has space'], /^--product-code must be .*; got "has space"; e\.g\. --product-code SHOP01\.$/],
    [['--booking-ttl', '0'], /^--booking-ttl must be .*; e\.g\. --booking-ttl 900\.$/],
    [['--callback-attempts', 'many'], /^--callback-attempts must be .*; e\.g\. --callback-attempts 5\.$/],
    [['--callback-delay', '-1'], /--callback-delay needs a value \(one starting with "-" reads as an option\), e\.g\. --callback-delay 1000\.$/],
    [['--chaos', 'boom=1'], /^--chaos: chaos knows .*; e\.g\. --chaos timeouts=0\.16,errors=0\.05,latency=200ms\.$/],
    [['--seed', '4'], /^--seed is the seed of --chaos; give --chaos too; e\.g\. --chaos errors=0\.05 --seed 42\.$/],
    [['--profile', 'prod'], /^--profile must be one of spec, esewa-uat; got "prod"; e\.g\. --profile esewa-uat\.$/],
    [['--bogus'], /^wallet-pay-sandbox: unknown option --bogus; the options here are --port 4010, .*; e\.g\. wallet-pay-sandbox --port 4010 --product-code SHOP01/],
    [['--port'], /^wallet-pay-sandbox: --port needs a value, e\.g\. --port 4010\.$/],
    [['--strict=yes'], /^wallet-pay-sandbox: --strict takes no value, e\.g\. --strict\.$/],
    [['stray'], /^"stray" is not a command; the commands are scenarios, clock, scenario, callbacks, run .*e\.g\. wallet-pay-sandbox clock advance 15m\.$/],
  ];
  for (const [args, expected] of cases) {
    test(`${args.join(' ') || '(empty)'}`, () => {
      let message = '';
      assert.throws(() => parseCommandLine(args), (error: unknown) => error instanceof CommandLineError && ((message = error.message), true));
      assert.match(message, expected);
      const example = exampleOf(message);
      if (example.startsWith('--')) assert.doesNotThrow(() => parseCommandLine(example.split(' ')), example);
    });
  }

  test('a start that fails names the flag to change: a port in use or below 1024, an unknown host, an unwritable data folder', () => {
    const err = (code: string, extra: object = {}) => Object.assign(new Error(`${code} something`), { code, ...extra });
    assert.match(startErrorMessage(err('EADDRINUSE')), /--port and --links-port, e\.g\. --port 4020 --links-port 4021/);
    assert.match(startErrorMessage(err('EACCES', { syscall: 'listen' })), /below 1024 .*--port .*e\.g\. --port 4010/);
    assert.match(startErrorMessage(err('ENOTFOUND', { syscall: 'getaddrinfo' })), /^--host names no address of this machine .*e\.g\. --host 127\.0\.0\.1$/);
    assert.match(startErrorMessage(err('EACCES', { syscall: 'open', path: '/root/x/sandbox.json' })), /^--data: cannot write \/root\/x\/sandbox\.json \(EACCES\).*e\.g\. --data \.sandbox-data$/);
  });
});

describe('each tool: bad input is refused by name with a right command line, before any request', () => {
  const cases: Array<[string[], RegExp]> = [
    [['scenarios', 'all'], /^scenarios takes no argument; got "all"; e\.g\. wallet-pay-sandbox scenarios --json\.$/],
    [['scenarios', '--url', 'x'], /^scenarios: unknown option --url; the options here are --json; e\.g\. wallet-pay-sandbox scenarios --json\.$/],
    [['clock', 'advance', '-5m'], /^clock: "-5m" is not an option, and the clock never goes back: give a duration forward, e\.g\. wallet-pay-sandbox clock advance 15m --url http:\/\/127\.0\.0\.1:4010\.$/],
    [['clock', 'advance', '5 minutes'], /^clock advance: "5 minutes" is not a duration forward; .*e\.g\. wallet-pay-sandbox clock advance 15m/],
    [['clock', 'advance'], /^clock takes nothing, "advance <duration>" or "set <time>"; got "advance"; e\.g\. wallet-pay-sandbox clock advance 15m/],
    [['clock', 'set', 'tomorrow'], /^clock set: "tomorrow" is not a time; .*e\.g\. wallet-pay-sandbox clock set 2026-12-01T10:00:00Z\.$/],
    [['clock', 'back', '5m'], /^clock takes nothing, .*got "back 5m"; e\.g\./],
    [['clock', '--url', 'localhost:4010'], /^clock: --url must be the running sandbox's base URL, e\.g\. --url http:\/\/127\.0\.0\.1:4010; got "localhost:4010"\.$/],
    [['scenario'], /^scenario takes one scenario ID or "none"; got none; e\.g\. wallet-pay-sandbox scenario WPS-004 --product-code SANDBOX\.$/],
    [['scenario', 'WPS-404'], /^scenario: "WPS-404" is not a scenario ID \(wallet-pay-sandbox scenarios lists them\); e\.g\. wallet-pay-sandbox scenario WPS-004/],
    [['scenario', 'WPS-004', '--product-code'], /^scenario: --product-code needs a value, e\.g\. --product-code SANDBOX\.$/],
    [['callbacks', 'resend'], /^callbacks resend takes one delivery ID such as CB-3 .*got none; e\.g\. wallet-pay-sandbox callbacks resend CB-3\.$/],
    [['callbacks', 'resend', '7'], /^callbacks resend takes one delivery ID such as CB-3 .*got "7"/],
    [['callbacks', 'show'], /^callbacks takes nothing or "resend <ID>"; got "show"; e\.g\. wallet-pay-sandbox callbacks --dead/],
    [['callbacks', '--to', 'http://127.0.0.1:1/cb'], /^callbacks: --to goes with resend, e\.g\. wallet-pay-sandbox callbacks resend CB-3 --to /],
    [['callbacks', '--failed'], /^callbacks: unknown option --failed; the options here are --url .*, --dead, --booking BK-1, --json, --to .*; e\.g\./],
    [['run'], /^run takes one journey file \(\.json, \.yaml or \.yml\); got none; e\.g\. wallet-pay-sandbox run examples\/journeys\/pending-then-paid\.yaml --endpoint http:\/\/127\.0\.0\.1:8080\/api\/pay\.$/],
    [['run', 'journey.json'], /^run needs --endpoint, the merchant's endpoint the element uses; e\.g\. wallet-pay-sandbox run /],
    [['run', 'journey.json', '--endpoint', '/api/pay'], /^run needs --endpoint, .* \(got "\/api\/pay"\); e\.g\./],
    [['run', 'no-such-journey.json', '--endpoint', 'http://127.0.0.1:8080/api/pay'], /^run: no journey file "no-such-journey\.json"; e\.g\. wallet-pay-sandbox run /],
  ];
  for (const [args, expected] of cases) {
    test(args.join(' '), async () => assert.match(await refusal(args), expected));
  }
});

describe('refusals of a running sandbox say what was asked and what would do', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: ['ERR01', 'ERR02'] });
  });
  after(() => sandbox.close());

  test('a clock set backwards, a product code the sandbox lacks, a delivery it does not have', async () => {
    const failures: string[] = [];
    const io = { out: () => undefined, err: () => undefined };
    for (const args of [
      ['clock', 'set', '2001-01-01T00:00:00Z'],
      ['scenario', 'WPS-004'],
      ['scenario', 'WPS-004', '--product-code', 'NOPE'],
      ['callbacks', 'resend', 'CB-999'],
    ]) {
      await assert.rejects(runCommandLine([...args, '--url', sandbox.baseUrl], io), (error: Error) => (failures.push(error.message), error.name === 'ToolFailure'));
    }
    assert.match(failures[0]!, /^the sandbox refused clock set 2001-01-01T00:00:00Z: The clock moves forward only: .* \(e\.g\. wallet-pay-sandbox clock set with a time after the sandbox's clock/);
    assert.match(failures[1]!, /^the sandbox refused scenario WPS-004: product_code must be one of the sandbox's: ERR01, ERR02\. \(e\.g\. --product-code with one of the sandbox's product codes/);
    assert.match(failures[2]!, /^the sandbox refused scenario WPS-004 --product-code NOPE: product_code must be one of/);
    assert.match(failures[3]!, /^the sandbox refused callbacks resend CB-999: No callback delivery "CB-999" .*\(e\.g\. an ID wallet-pay-sandbox callbacks lists/);
  });
});

test('as a process: a bad argument exits 2 with its message; a sandbox that is not there exits 1 naming --url with an example', async () => {
  const runCli = async (args: string[]) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const [code] = (await once(child, 'exit')) as [number | null];
    clearTimeout(timer);
    return { code, err };
  };
  const bad = await runCli(['clock', 'advance', '-5m']);
  assert.equal(bad.code, 2, bad.err);
  assert.match(bad.err, /^wallet-pay-sandbox: clock: "-5m" is not an option, and the clock never goes back: give a duration forward, e\.g\. wallet-pay-sandbox clock advance 15m/);
  const gone = await runCli(['callbacks', '--url', 'http://127.0.0.1:9']);
  assert.equal(gone.code, 1, gone.err);
  assert.match(gone.err, /could not reach the sandbox at http:\/\/127\.0\.0\.1:9 .*Give its address with --url, e\.g\. --url http:\/\/127\.0\.0\.1:4010\./);
});
