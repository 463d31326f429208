/**
 * Journey files: the examples in examples/journeys/ run against the kit's handler on loopback (JSON
 * and YAML), through the library and through `wallet-pay-sandbox run` with a JUnit report; a failing
 * journey says which step and why; the Playwright fixtures of `wallet-pay-button/testing` drive a
 * real browser on the sandbox's page.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { checkJourney, JourneyError, junitReport, loadJourney, resolve, runJourney, type JourneyStep } from '../../../../src/sandbox/esewa-intent/journey.js';
import { walletPayFixtures } from '../../../../src/testing/index.js';
import { launchChromium } from '../../../../scripts/chromium.mjs';
import { book, startKit } from '../support.js';
import { bundled } from '../../../support/bundled.js';

const JOURNEYS = fileURLToPath(new URL('../../../../examples/journeys/', import.meta.url));
const CLI = await bundled(new URL('../../../../src/sandbox/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'wpb-journey-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, ['--enable-source-maps', CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return once(child, 'exit').then(([code]) => {
    clearTimeout(timer);
    return { code: code as number | null, out, err };
  });
}

describe('the example journeys against the kit on loopback', () => {
  let sandbox: Sandbox;
  let kit: { endpoint: string; close(): Promise<void> };
  before(async () => {
    sandbox = await startSandbox({ callbackRetry: { attempts: 3, baseDelayMs: 60_000 } });
    kit = await startKit(sandbox);
  });
  after(async () => {
    await kit.close();
    await sandbox.close();
  });

  const files = readdirSync(JOURNEYS).filter((file) => /\.(json|ya?ml)$/.test(file));
  test('there are JSON and YAML examples', () => {
    assert.ok(files.some((f) => f.endsWith('.json')) && files.some((f) => f.endsWith('.yaml')));
  });
  for (const file of files) {
    test(`${file} passes`, async () => {
      const lines: string[] = [];
      const result = await runJourney(await loadJourney(join(JOURNEYS, file)), {
        endpoint: kit.endpoint,
        sandboxUrl: sandbox.baseUrl,
        env: { ORDER_PREFIX: `${file}-` },
        log: (line) => lines.push(line),
      });
      assert.ok(result.ok, lines.join('\n'));
      assert.ok(result.steps.length >= 5);
    });
  }

  test('wallet-pay-sandbox run: each step printed, a JUnit report written, exit 0; a failing journey exits 1 naming the step', async () => {
    const junit = join(dir, 'out.xml');
    const passed = await cli(['run', join(JOURNEYS, 'late-callback-then-refunds.json'), '--endpoint', kit.endpoint, '--url', sandbox.baseUrl, '--junit', junit], { ORDER_PREFIX: 'CLI-' });
    assert.equal(passed.code, 0, passed.out + passed.err);
    assert.match(passed.out, /ok {3}1 every new booking gets a late callback/);
    assert.match(passed.out, /a late callback, then three refunds: passed \(25 of 25 steps\)/);
    const xml = readFileSync(junit, 'utf8');
    assert.match(xml, /<testsuite name="a late callback, then three refunds" tests="25" failures="0"/);

    const failing = join(dir, 'failing.json');
    writeFileSync(failing, JSON.stringify({ name: 'wrong expectation', steps: [{ as: 'o', book: { order: { id: 'F-1' } } }, { expectStatus: { booking: '${o.data.booking_id}', correlation: '${o.data.correlation_id}', status: 'SUCCESS', within: '300ms' } }, { clock: '1m' }] }));
    const failed = await cli(['run', failing, '--endpoint', kit.endpoint, '--url', sandbox.baseUrl, '--junit', junit]);
    assert.equal(failed.code, 1, failed.out + failed.err);
    assert.match(failed.out, /FAIL 2 expectStatus: status SUCCESS of BK-[\w-]+ \(the merchant\) not seen within 300 ms; last seen: 200 BOOKED/);
    assert.match(failed.err, /journey "wrong expectation" failed/);
    assert.match(readFileSync(junit, 'utf8'), /failures="2"[\s\S]*<failure message="not run: an earlier step failed"\/>/);

    const usage = await cli(['run', failing]);
    assert.equal(usage.code, 2);
    assert.match(usage.err, /run needs --endpoint/);
  });

  test('expectCallback with count 0: a delivered callback fails the step, one never sent passes after the whole time, a named state filters', async () => {
    const run = (steps: JourneyStep[]) => runJourney({ name: 'no callback', steps }, { endpoint: kit.endpoint, sandboxUrl: sandbox.baseUrl, waitMs: 5_000 });
    const booked = (id: string): JourneyStep => ({ as: 'o', book: { order: { id } } });
    const paid = await run([
      booked('NONE-1'),
      { pay: { booking: '${o.data.booking_id}' } },
      { expectCallback: { booking: '${o.data.booking_id}', status: 'SUCCESS' } },
      { expectCallback: { booking: '${o.data.booking_id}', count: 0, within: '300ms' } },
    ]);
    assert.equal(paid.ok, false, 'a count of 0 after a delivered callback fails');
    assert.match(paid.steps[3]!.error ?? '', /expected no callback\(s\) of BK-[\w-]+ within 300 ms, but the desk had \["SUCCESS:delivered"\]/);

    const quiet = await run([booked('NONE-2'), { expectCallback: { booking: '${o.data.booking_id}', count: 0, within: '400ms' } }]);
    assert.ok(quiet.ok, JSON.stringify(quiet.steps));
    assert.ok(quiet.steps[1]!.ms >= 400, `the whole time is waited: ${quiet.steps[1]!.ms} ms`);

    const otherState = await run([
      booked('NONE-3'),
      { pay: { booking: '${o.data.booking_id}' } },
      { expectCallback: { booking: '${o.data.booking_id}', status: 'SUCCESS' } },
      { expectCallback: { booking: '${o.data.booking_id}', count: 0, state: 'dead', within: '200ms' } },
    ]);
    assert.ok(otherState.ok, JSON.stringify(otherState.steps));

    const negative = await run([booked('NONE-4'), { expectCallback: { booking: '${o.data.booking_id}', count: -1 } }]);
    assert.match(negative.steps[1]!.error ?? '', /"count" is a whole number of at least 0; got -1/);
  });
});

describe('journey rules', () => {
  test('a step is exactly one known kind; a repeat needs times and steps; each error names the place', () => {
    assert.throws(() => checkJourney({ steps: [] }), /a non-empty "steps" array/);
    assert.throws(() => checkJourney({ steps: [{ bok: {} }] }, 'j.json'), /j.json: step 1 has "bok"; a step is exactly one of book, pay/);
    assert.throws(() => checkJourney({ steps: [{ book: {}, pay: {} }] }), /step 1 has "book", "pay"/);
    assert.throws(() => checkJourney({ steps: [{ repeat: { times: 0, steps: [] } }] }), /repeat needs "times"/);
    assert.throws(() => checkJourney({ steps: [{ repeat: { times: 2, steps: [{ nope: 1 }] } }] }), /step 1 > step 1 has "nope"/);
  });

  test('references: earlier answers, the environment and the round; a missing one says how to save it', () => {
    const scope = { saved: { order: { data: { booking_id: 'BK-1' } } }, env: { PREFIX: 'P-' }, i: 3 };
    assert.deepEqual(resolve({ a: '${order.data.booking_id}', b: '${env.PREFIX}${i}', n: '${i}' }, scope), { a: 'BK-1', b: 'P-3', n: 3 });
    assert.throws(() => resolve('${paid.data.x}', scope), /no earlier step saved "paid" \(add "as": "paid" to it\)/);
    assert.throws(() => resolve('${order.data.nope}', scope), /"nope" is not in the answer/);
    assert.throws(() => resolve('${env.MISSING}', scope), /\$\{env.MISSING\}: the environment has no MISSING/);
  });

  test('a YAML journey without the yaml package: a clear error naming the install command; JSON needs nothing', async () => {
    await assert.rejects(
      loadJourney(join(JOURNEYS, 'pending-then-paid.yaml'), () => Promise.reject(new Error("Cannot find package 'yaml'"))),
      (error: unknown) => error instanceof JourneyError && /needs the yaml package: npm install --save-dev yaml \(or write the journey as JSON\)/.test(error.message),
    );
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ steps: ');
    await assert.rejects(loadJourney(bad), /bad.json is not JSON/);
  });

  test('the JUnit report escapes what it quotes', () => {
    const xml = junitReport({ name: 'a & b', ok: false, steps: [{ name: '1 book', ok: false, ms: 5, error: 'answered 500: <html>"x"' }] });
    assert.match(xml, /name="a &#38; b"/);
    assert.match(xml, /message="answered 500: &#60;html&#62;&#34;x&#34;"/);
  });
});

describe('wallet-pay-button/testing: the Playwright fixtures', () => {
  test('a sandbox per test, journeys on it, and paying through the real page in a browser with a scenario', async () => {
    const browser = await launchChromium();
    const page = await browser.newPage();
    try {
      await walletPayFixtures.walletPaySandbox({ walletPaySandboxOptions: { productCode: 'FIX01' } }, async (sandbox) => {
        assert.deepEqual(sandbox.productCodes, ['FIX01']);
        const kit = await startKit(sandbox);
        try {
          await walletPayFixtures.runJourneyFile({ walletPaySandbox: sandbox }, async (runJourneyFile) => {
            const result = await runJourneyFile(join(JOURNEYS, 'pending-then-paid.yaml'), { endpoint: kit.endpoint, env: { ORDER_PREFIX: 'FX-' } });
            assert.ok(result.ok, JSON.stringify(result.steps.filter((s) => !s.ok)));
          });
          const { body } = await book(sandbox.baseUrl, { key: sandbox.accessKey, product: 'FIX01', redirectUrl: `${sandbox.baseUrl}/returned` });
          await walletPayFixtures.payOnPage({ page }, async (payOnPage) => {
            await payOnPage(body.data!['deeplink']!, { scenario: 'WPS-002' });
          });
          assert.match(page.url(), /status=FAILED/);
          assert.equal(sandbox.getBooking(body.data!['booking_id']!)?.scenario, 'WPS-002');
        } finally {
          await kit.close();
        }
      });
    } finally {
      await browser.close();
    }
  });
});
