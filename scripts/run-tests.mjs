// `npm test`: finds (or installs) the programs the tests need, then runs every suite in turn, stopping
// at the first that fails. The package's build runs beside `test:node`, whose files spend much of
// their time waiting on servers and timers; nothing before `test:built` reads dist/. The build's
// output is held and printed once `test:node` is done, so the two do not interleave.
import { spawn } from 'node:child_process';

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
 * is `{ name, command }`, or `{ name, command, beside: { name, command } }`: `beside` runs at the same
 * time, its output held and printed after the step's own.
 */
export async function runSteps(steps, { print = (text) => process.stdout.write(text) } = {}) {
  for (const step of steps) {
    const side = step.beside && run(step.beside.command, { quiet: true });
    const own = await run(step.command);
    const besides = side && (await side);
    if (besides) print(`\n> ${step.beside.name} (beside ${step.name})\n${besides.output}`);
    if (own.code !== 0) return { step: step.name, code: own.code };
    if (besides && besides.code !== 0) return { step: step.beside.name, code: besides.code };
  }
  return undefined;
}

/** What `npm test` runs. */
export const TEST_STEPS = [
  ...['ensure-browsers', 'ensure-postgres', 'ensure-mariadb', 'ensure-redis', 'backends'].map((script) => ({
    name: `scripts/${script}.mjs`,
    command: [process.execPath, `scripts/${script}.mjs`],
  })),
  { name: 'test:node', command: [npm, 'run', 'test:node'], beside: { name: 'build', command: [npm, 'run', 'build'] } },
  ...['test:browser', 'test:e2e', 'test:built'].map((script) => ({ name: script, command: [npm, 'run', script] })),
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const failed = await runSteps(TEST_STEPS);
  if (failed) {
    console.error(`\nnpm test: ${failed.step} failed (exit code ${failed.code}).`);
    process.exit(failed.code);
  }
}
