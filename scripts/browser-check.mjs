// After a browser test run: how many tests each group ran, and which groups ran none. web-test-runner
// passes a run in which an engine ran nothing (a group of files that all fail before their first test
// counts as failures, but a launcher that starts a blank page or a group whose tests all skip does
// not), so the run is checked group by group (scripts/test-browser.mjs).

/** Every test of a session's results, its suites flattened. */
function testsOf(suite) {
  if (!suite) return [];
  return [...suite.tests, ...suite.suites.flatMap(testsOf)];
}

const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

function firstLine(message) {
  return String(message ?? '').split('\n')[0].trim();
}

/**
 * One summary per group, in the order the sessions come: its name, its engine (the launcher's name),
 * its files, the tests that passed, failed and were skipped, the files that ran no test, and the
 * errors that stopped files before their tests (first line of each, with the number of files).
 */
export function groupSummaries(sessions) {
  const groups = new Map();
  for (const session of sessions) {
    const name = session.group.name;
    let group = groups.get(name);
    if (!group) {
      group = { group: name, engines: new Set(), files: 0, passed: 0, failed: 0, skipped: 0, filesWithoutTests: 0, fileErrors: new Map() };
      groups.set(name, group);
    }
    group.engines.add(session.browser.name);
    group.files += 1;
    const tests = testsOf(session.testResults);
    group.passed += tests.filter((test) => test.passed && !test.skipped).length;
    group.failed += tests.filter((test) => !test.passed && !test.skipped).length;
    group.skipped += tests.filter((test) => test.skipped).length;
    if (tests.every((test) => test.skipped)) group.filesWithoutTests += 1;
    for (const message of new Set((session.errors ?? []).map((error) => firstLine(error.message)))) {
      group.fileErrors.set(message, (group.fileErrors.get(message) ?? 0) + 1);
    }
  }
  return [...groups.values()].map(({ engines, ...group }) => ({ ...group, engine: [...engines].join(', ') }));
}

/** Why a group that ran no test ran none, in words. */
function cause(summary) {
  const errors = [...summary.fileErrors].sort((a, b) => b[1] - a[1]);
  if (errors.length > 0) {
    const [message, n] = errors[0];
    const others = errors.length > 1 ? ` (and ${errors.length - 1} other error${errors.length > 2 ? 's' : ''})` : '';
    return `${n} of ${count(summary.files, 'file')} failed before a test ran: ${message}${others}`;
  }
  if (summary.failed > 0) return `all ${count(summary.failed, 'test')} failed`;
  if (summary.skipped > 0) return `all ${count(summary.skipped, 'test')} skipped`;
  return `its ${count(summary.files, 'file')} registered no test`;
}

/**
 * The groups in which no test passed, each with a message naming the group, the engine and the cause.
 * An empty list means every engine really ran.
 */
export function silentGroups(summaries) {
  return summaries
    .filter((summary) => summary.passed === 0)
    .map((summary) => ({
      group: summary.group,
      engine: summary.engine,
      message: `The ${summary.engine} group "${summary.group}" ran no test: ${cause(summary)}.`,
    }));
}

/** One line per group for the end of the run. */
export function summaryLine(summary) {
  const notes = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.skipped) notes.push(`${summary.skipped} skipped`);
  if (summary.filesWithoutTests) notes.push(`${count(summary.filesWithoutTests, 'file')} ran no test`);
  return `${summary.group} (${summary.engine}): ${count(summary.files, 'file')}, ${notes.join(', ')}`;
}
