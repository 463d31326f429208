// `npm run test:browser`: web-test-runner (its arguments pass through, e.g. `-- --group firefox`),
// then a check that every group ran tests (scripts/browser-check.mjs): a group in which no test
// passed fails the run with its engine and the cause, even when web-test-runner itself passed it.
import { startTestRunner } from '@web/test-runner';
import { groupSummaries, silentGroups, summaryLine } from './browser-check.mjs';

const runner = await startTestRunner({ autoExitProcess: false });
if (runner) {
  // What web-test-runner does itself when it owns the process.
  const stop = () => runner.stop();
  process.on('SIGINT', stop);
  process.on('exit', stop);
  process.on('uncaughtException', (error) => {
    console.error('Uncaught exception, stopping test runner..\n', error);
    stop();
  });
  runner.on('stopped', (passed) => {
    const summaries = groupSummaries(runner.sessions.all());
    console.log('\nTests per group:');
    for (const summary of summaries) console.log(`  ${summaryLine(summary)}`);
    const silent = silentGroups(summaries);
    for (const { message } of silent) console.error(`\nError: ${message}`);
    process.exit(passed && silent.length === 0 ? 0 : 1);
  });
}
// Without a runner, startTestRunner has printed the error and ends the process with code 1.
