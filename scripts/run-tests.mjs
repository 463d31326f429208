// `npm test`: finds (or installs) the programs the tests need, then runs every suite in turn, stopping
// at the first that fails. A step may run others beside it, their output held and printed once it is
// done, so none interleave: the package's build beside `test:node` (nothing before `test:built` reads
// dist/), and `test:built` beside `test:e2e`, whose browser journeys leave most of the two cores idle
// (alone it used 0.6 of a core). Every server listens on port 0, its data in a fresh temporary folder.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `[command, ...args]`; resolves with its exit code and, when `quiet`, what it printed. */
function run([command, ...args], { quiet = false } = {}) {
  const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
  let output = '';
  if (quiet) {
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
  }
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/**
 * Runs the steps in order and resolves with the first failure (`{ step, code }`) or undefined. A step
 * is `{ name, command }`, or `{ name, command, beside: [{ name, command }, ...] }`: those beside run at
 * the same time, their output held and printed after the step's own, in the order listed (only a
 * line for each that passed when the step failed).
 */
export async function runSteps(steps, { print = (text) => process.stdout.write(text), timed = () => {} } = {}) {
  for (const step of steps) {
    const started = performance.now();
    const beside = step.beside ?? [];
    const sides = beside.map((side) => run(side.command, { quiet: true }));
    const own = await run(step.command);
    const results = await Promise.all(sides);
    // When the step failed, a step beside it that passed prints one line, not its output, so the
    // failure's report stays at the end, where a CI log's tail shows it.
    results.forEach((result, i) => {
      const kept = own.code === 0 || result.code !== 0;
      print(`\n> ${beside[i].name} (beside ${step.name})${kept ? `\n${result.output}` : `: passed; its output is left out, so the failure of ${step.name} above stays last\n`}`);
    });
    timed(step.name, performance.now() - started);
    if (own.code !== 0) return { step: step.name, code: own.code };
    const failed = results.findIndex((result) => result.code !== 0);
    if (failed !== -1) return { step: beside[failed].name, code: results[failed].code };
  }
  return undefined;
}

/** What `npm test` runs. */
export const TEST_STEPS = [
  ...['ensure-browsers', 'ensure-postgres', 'ensure-mariadb', 'ensure-redis', 'backends'].map((script) => ({
    name: `scripts/${script}.mjs`,
    command: [process.execPath, `scripts/${script}.mjs`],
  })),
  { name: 'test:node', command: [npm, 'run', 'test:node'], beside: [{ name: 'build', command: [npm, 'run', 'build'] }] },
  { name: 'test:browser', command: [npm, 'run', 'test:browser'] },
  { name: 'test:e2e', command: [npm, 'run', 'test:e2e'], beside: [{ name: 'test:built', command: [npm, 'run', 'test:built'] }] },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  // Each step's wall time, and the whole run's, printed at the end: the measure of "npm test within 8
  // minutes on 2 cores" is read from a real run, not estimated.
  const started = performance.now();
  const times = [];
  const failed = await runSteps(TEST_STEPS, { timed: (name, ms) => times.push(`${name} ${(ms / 1000).toFixed(0)} s`) });
  console.log(`\nnpm test took ${((performance.now() - started) / 1000).toFixed(0)} s: ${times.join(', ')}.`);
  if (failed) {
    console.error(`\nnpm test: ${failed.step} failed (exit code ${failed.code}).`);
    process.exit(failed.code);
  }
}
