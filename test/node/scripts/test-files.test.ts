import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { suiteFiles, SUITES } from '../../../scripts/test-files.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const found = (command: string) => execFileSync('sh', ['-c', command], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').sort();

test('test:node runs every bench and test/node test file once, test:e2e every test/e2e one, test:built every test/package and test/examples one', () => {
  for (const [suite, command] of [
    ['node', "ls bench/*.test.ts; find test/node -name '*.test.ts'"],
    ['e2e', "find test/e2e -name '*.test.ts'"],
    ['built', "find test/package test/examples -name '*.test.ts'"],
  ] as const) {
    const files = suiteFiles(suite, ROOT);
    assert.equal(new Set(files).size, files.length, suite);
    assert.deepEqual([...files].sort(), found(command), suite);
  }
});

test("the slow files start first, in the order slowFirst gives, and each prefix still names test files", () => {
  for (const suite of ['node', 'e2e', 'built'] as const) {
    const { slowFirst } = SUITES[suite];
    const files = suiteFiles(suite, ROOT);
    const rank = (file: string) => {
      const index = slowFirst.findIndex((prefix) => file.startsWith(prefix));
      return index === -1 ? slowFirst.length : index;
    };
    for (let i = 1; i < files.length; i++) assert.ok(rank(files[i]!) >= rank(files[i - 1]!), `${files[i]} starts after ${files[i - 1]}, a file of a later rank`);
    for (const prefix of slowFirst) assert.ok(files.some((file) => file.startsWith(prefix)), `${suite}'s slowFirst lists ${prefix}, which names no test file: rename or remove it there`);
    assert.ok(files[0]!.startsWith(slowFirst[0]!), suite);
  }
});
