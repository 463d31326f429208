import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runSteps, TEST_STEPS } from '../../../scripts/run-tests.mjs';

const node = process.execPath;
const exit = (code: number, text = '') => [node, '-e', `process.stdout.write(${JSON.stringify(text)}); process.exit(${code})`];

test('runSteps stops at the first failing step and names it with its exit code', async () => {
  const printed: string[] = [];
  const failed = await runSteps(
    [
      { name: 'first', command: exit(0) },
      { name: 'second', command: exit(3) },
      { name: 'never', command: [node, '-e', 'throw new Error("ran after a failure")'] },
    ],
    { print: (text) => printed.push(text) },
  );
  assert.deepEqual(failed, { step: 'second', code: 3 });
});

test("steps beside another run at the same time, their output printed after in their order; a failure fails the run after the other's end", async () => {
  const printed: string[] = [];
  const marker = `beside-${process.pid}`;
  const failed = await runSteps(
    [
      {
        name: 'main',
        command: [node, '-e', 'setTimeout(() => {}, 300)'],
        beside: [
          { name: 'slow', command: [node, '-e', `setTimeout(() => process.stdout.write('slow-${marker}'), 200)`] },
          { name: 'side', command: exit(2, marker) },
        ],
      },
    ],
    { print: (text) => printed.push(text) },
  );
  assert.deepEqual(failed, { step: 'side', code: 2 });
  assert.equal(printed.length, 2);
  assert.match(printed[0]!, new RegExp(`^\\n> slow \\(beside main\\)\\nslow-${marker}$`));
  assert.match(printed[1]!, new RegExp(`^\\n> side \\(beside main\\)\\n${marker}$`));
});

test('a failing main step wins over a passing side step, whose output is left out so the failure stays last; all pass when all pass', async () => {
  const printed: string[] = [];
  const marker = `side-output-${process.pid}`;
  assert.deepEqual(await runSteps([{ name: 'main', command: exit(1), beside: [{ name: 'side', command: exit(0, marker) }] }], { print: (text) => printed.push(text) }), { step: 'main', code: 1 });
  assert.equal(printed.length, 1);
  assert.ok(!printed[0]!.includes(marker), `the passing side step's output was printed after the failure: ${printed[0]}`);
  assert.match(printed[0]!, /^\n> side \(beside main\): passed; its output is left out, so the failure of main above stays last\n$/);
  assert.equal(await runSteps([{ name: 'main', command: exit(0), beside: [{ name: 'side', command: exit(0) }] }], { print: () => {} }), undefined);
});

test('each step that ran is timed once, in order, its steps beside it included; a step never started is not', async () => {
  const timed: [string, number][] = [];
  await runSteps(
    [
      { name: 'main', command: [node, '-e', 'setTimeout(() => {}, 50)'], beside: [{ name: 'side', command: [node, '-e', 'setTimeout(() => {}, 250)'] }] },
      { name: 'failing', command: exit(1) },
      { name: 'never', command: exit(0) },
    ],
    { print: () => {}, timed: (name, ms) => timed.push([name, ms]) },
  );
  assert.deepEqual(timed.map(([name]) => name), ['main', 'failing']);
  assert.ok(timed[0]![1] >= 240, `the main step's time includes its slower side step: ${timed[0]![1]} ms`);
});

test("npm test's steps name scripts that exist: the build beside test:node, and test:built beside test:e2e, after the build", () => {
  const scripts = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).scripts as Record<string, string>;
  const npmScripts = TEST_STEPS.flatMap((step) => [step, ...(step.beside ?? [])])
    .filter((step) => step.command[1] === 'run')
    .map((step) => step.command[2]!);
  assert.deepEqual(npmScripts, ['test:node', 'build', 'test:browser', 'test:e2e', 'test:built']);
  for (const name of npmScripts) assert.ok(scripts[name], `package.json has no script ${name}`);
  assert.equal(scripts.test, 'node scripts/run-tests.mjs');
  const sides = Object.fromEntries(TEST_STEPS.filter((step) => step.beside).map((step) => [step.name, step.beside!.map((side) => side.name)]));
  assert.deepEqual(sides, { 'test:node': ['build'], 'test:e2e': ['test:built'] });
});
