/**
 * The command line and the other providers the sandbox plays: `--epay-session-idle` and
 * `--khalti-expires-in` reach the running sandbox, the start banner names ePay v2's form and status
 * URLs and Khalti's API base (each used here as printed), and `scenarios` lists the EPAY and KHALTI
 * catalogues beside the intent one.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CommandLineError, parseCommandLine, runCommandLine, USAGE } from '../../../src/sandbox/command.js';
import { EPAY_SCENARIOS, epayMagicAmountOf } from '../../../src/sandbox/epay/scenarios.js';
import { KHALTI_SCENARIOS } from '../../../src/sandbox/khalti/scenarios.js';
import { SCENARIOS } from '../../../src/sandbox/esewa-intent/scenarios.js';
import { EPAYTEST, epayForm, postForm } from './epay/support.js';
import { initiateBody, khaltiPost } from './khalti/support.js';

/** Runs the command line in this process; what it printed, and the sandbox when it started one. */
async function commandLine(args: string[]) {
  const out: string[] = [];
  const sandbox = await runCommandLine(args, { out: (line) => out.push(line), err: (line) => out.push(line) });
  return { sandbox, text: out.join('\n') };
}

/** The URL the banner prints after `label`. */
function printed(text: string, label: string): string {
  const match = new RegExp(`^  ${label}:\\s+(http://\\S+)`, 'm').exec(text);
  assert.ok(match, `the banner has no "${label}" line:\n${text}`);
  return match[1]!;
}

describe('--epay-session-idle and --khalti-expires-in', () => {
  test('parsed into epaySessionIdleMs and khaltiExpiresIn; absent when not given; listed in --help', () => {
    const parsed = parseCommandLine(['--epay-session-idle', '90s', '--khalti-expires-in', '60']);
    assert.equal(parsed.help, false);
    assert.equal(parsed.help === false && parsed.options.epaySessionIdleMs, 90_000);
    assert.equal(parsed.help === false && parsed.options.khaltiExpiresIn, 60);
    const plain = parseCommandLine([]);
    assert.ok(plain.help === false && !('epaySessionIdleMs' in plain.options) && !('khaltiExpiresIn' in plain.options));
    assert.match(USAGE, /--epay-session-idle <duration>[\s\S]*default 5m/);
    assert.match(USAGE, /--khalti-expires-in <seconds>[\s\S]*default 1800/);
  });

  const bad: Array<[string[], RegExp]> = [
    [['--epay-session-idle', 'soon'], /^--epay-session-idle must be a duration such as 90s or 10m; got "soon"; e\.g\. --epay-session-idle 10m\.$/],
    [['--epay-session-idle', '0s'], /^--epay-session-idle must be longer than 0; got "0s"; e\.g\. --epay-session-idle 10m\.$/],
    [['--khalti-expires-in', '0'], /^--khalti-expires-in must be a whole number from 1 to 2592000; got "0"; e\.g\. --khalti-expires-in 1800\.$/],
    [['--khalti-expires-in', '30m'], /^--khalti-expires-in must be a whole number/],
    [['--khalti-expires-in'], /--khalti-expires-in needs a value, e\.g\. --khalti-expires-in 1800\./],
  ];
  for (const [args, message] of bad) {
    test(`refuses ${args.join(' ')}`, () => {
      assert.throws(() => parseCommandLine(args), (error: unknown) => error instanceof CommandLineError && message.test(error.message));
    });
  }

  test('the banner prints the ePay v2 form and status URLs and the Khalti API base; each works as printed, with the flags applied', async () => {
    const { sandbox, text } = await commandLine(['--port', '0', '--links-port', '0', '--epay-session-idle', '90s', '--khalti-expires-in', '60']);
    assert.ok(sandbox, text);
    try {
      const base = printed(text, 'serviceUrl');
      const form = printed(text, 'eSewa ePay v2 form');
      const status = printed(text, 'ePay v2 status');
      const khalti = printed(text, 'Khalti API base');
      assert.deepEqual([form, status, khalti], [`${base}/api/epay/main/v2/form`, `${base}/api/epay/transaction/status/`, `${base}/api/v2/`]);

      // ePay: a posted session reads PENDING, and NOT_FOUND once idle longer than the flag's 90 s.
      const uuid = `cli-${Date.now()}`;
      assert.equal((await postForm(form, epayForm({ uuid }))).status, 200);
      const check = async () => {
        const query = new URLSearchParams({ product_code: EPAYTEST, total_amount: '100', transaction_uuid: uuid });
        const response = await fetch(`${status}?${query}`, { signal: AbortSignal.timeout(5_000) });
        return ((await response.json()) as { status: string }).status;
      };
      assert.equal(await check(), 'PENDING');
      await sandbox.clock.advance('89s');
      assert.equal(await check(), 'PENDING', 'still within the 90 s given');
      await sandbox.clock.advance('2s');
      assert.equal(await check(), 'NOT_FOUND');

      // Khalti: a link initiated at the printed base lives the flag's 60 s.
      const initiated = await khaltiPost(khalti.replace(/\/api\/v2\/$/, ''), '/api/v2/epayment/initiate/', initiateBody());
      assert.equal(initiated.status, 200, initiated.text);
      assert.equal(initiated.json['expires_in'], 60);
    } finally {
      await sandbox.close();
    }
  });
});

describe('scenarios', () => {
  test('lists the intent, EPAY and KHALTI catalogues, each scenario with its magic amount', async () => {
    const { sandbox, text } = await commandLine(['scenarios']);
    assert.equal(sandbox, undefined);
    for (const s of SCENARIOS) assert.match(text, new RegExp(`^${s.id}  ${s.name} `, 'm'));
    assert.match(text, /^eSewa ePay v2 \(total_amount in rupees/m);
    for (const s of EPAY_SCENARIOS) assert.match(text, new RegExp(`^${s.id}  ${s.name} +${epayMagicAmountOf(s)} `, 'm'));
    assert.match(text, /^Khalti \(amount in paisa/m);
    for (const [index, s] of KHALTI_SCENARIOS.entries()) assert.match(text, new RegExp(`^${s.id}  ${s.name} +${8001 + index} `, 'm'));
    assert.ok(text.indexOf('EPAY-001') < text.indexOf('KHALTI-001') && text.indexOf('WPS-001') < text.indexOf('EPAY-001'), 'intent, then ePay, then Khalti');
  });
});
