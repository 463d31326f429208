/**
 * The check after a browser test run (scripts/browser-check.mjs, run by scripts/test-browser.mjs): a
 * group in which no test passed fails the run with its engine and the cause, whatever
 * web-test-runner concluded.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { groupSummaries, silentGroups, summaryLine, type SessionLike } from '../../../scripts/browser-check.mjs';

const ROOT = join(import.meta.dirname, '../../..');
const ORIENTATION =
  'Protocol error (emulation.setScreenOrientationOverride): unknown command emulation.setScreenOrientationOverride RemoteError@chrome://remote/content/shared/RemoteError.sys.mjs:8:8';

const passing = { passed: true, skipped: false };
const failing = { passed: false, skipped: false };
const skipped = { passed: false, skipped: true };

function session(group: string, engine: string, result: Partial<SessionLike> = {}): SessionLike {
  return { group: { name: group }, browser: { name: engine }, errors: [], ...result };
}

describe('groups that ran no test', () => {
  test('a Firefox group whose files all fail before a test: named with the engine and the error', () => {
    const sessions = [
      session('desktop', 'Chromium', { testResults: { tests: [passing], suites: [{ tests: [passing, failing], suites: [] }] } }),
      ...Array.from({ length: 21 }, () => session('firefox', 'Firefox', { errors: [{ message: `${ORIENTATION}\nUnknownCommandError@...` }] })),
    ];
    const silent = silentGroups(groupSummaries(sessions));
    assert.deepEqual(silent, [
      {
        group: 'firefox',
        engine: 'Firefox',
        message: `The Firefox group "firefox" ran no test: 21 of 21 files failed before a test ran: ${ORIENTATION}.`,
      },
    ]);
  });

  test('the most frequent error is named, with the number of others', () => {
    const sessions = [
      session('webkit', 'WebKit', { errors: [{ message: 'WebKitWebDriver did not start on port 1.' }] }),
      session('webkit', 'WebKit', { errors: [{ message: 'Browser disconnected' }] }),
      session('webkit', 'WebKit', { errors: [{ message: 'Browser disconnected' }] }),
    ];
    assert.equal(
      silentGroups(groupSummaries(sessions))[0]?.message,
      'The WebKit group "webkit" ran no test: 2 of 3 files failed before a test ran: Browser disconnected (and 1 other error).',
    );
  });

  test('files that register no test, tests that all skip, tests that all fail', () => {
    const sessions = [
      session('empty', 'Firefox', { testResults: { tests: [], suites: [{ tests: [], suites: [] }] } }),
      session('empty', 'Firefox'),
      session('skipping', 'WebKit', { testResults: { tests: [skipped, skipped], suites: [] } }),
      session('failing', 'Chromium', { testResults: { tests: [failing], suites: [] } }),
    ];
    assert.deepEqual(
      silentGroups(groupSummaries(sessions)).map(({ message }) => message),
      [
        'The Firefox group "empty" ran no test: its 2 files registered no test.',
        'The WebKit group "skipping" ran no test: all 2 tests skipped.',
        'The Chromium group "failing" ran no test: all 1 test failed.',
      ],
    );
  });

  test('a group with one passing test is not silent, and its line counts everything', () => {
    const sessions = [
      session('firefox', 'Firefox', { testResults: { tests: [passing, failing, skipped], suites: [] } }),
      session('firefox', 'Firefox', { testResults: { tests: [], suites: [] } }),
    ];
    const summaries = groupSummaries(sessions);
    assert.deepEqual(silentGroups(summaries), []);
    assert.equal(summaryLine(summaries[0]!), 'firefox (Firefox): 2 files, 1 passed, 1 failed, 1 skipped, 1 file ran no test');
  });
});

test('the browser test command fails a run that web-test-runner passes when a group ran no test', { timeout: 120_000 }, async () => {
  const child = spawn(
    process.execPath,
    ['scripts/test-browser.mjs', '--config', 'test/fixtures/silent-group/web-test-runner.config.mjs'],
    { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    const limit = setTimeout(() => {
      child.kill();
      reject(new Error(`scripts/test-browser.mjs did not exit within 100 s. Output:\n${output}`));
    }, 100_000);
    child.once('exit', (exitCode) => {
      clearTimeout(limit);
      resolve(exitCode);
    });
  });
  assert.match(output, /all tests passed/, 'web-test-runner alone passes the run');
  assert.match(output, /ran \(Chromium\): 1 file, 1 passed, 0 failed/);
  assert.match(output, /Error: The Chromium group "silent" ran no test: its 1 file registered no test\./);
  assert.equal(code, 1, output);
});
