import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nodeTestFiles, SLOW_FIRST } from '../../../scripts/test-node.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

test('test:node runs every bench and test/node test file once', () => {
  const found = execFileSync('sh', ['-c', "ls bench/*.test.ts; find test/node -name '*.test.ts'"], { cwd: ROOT, encoding: 'utf8' }).trim().split('\n').sort();
  const files = nodeTestFiles(ROOT);
  assert.equal(new Set(files).size, files.length);
  assert.deepEqual([...files].sort(), found);
});

test('the slow folders start first, in the order SLOW_FIRST gives, and each still holds test files', () => {
  const files = nodeTestFiles(ROOT);
  let last = -1;
  for (const file of files) {
    const index = SLOW_FIRST.findIndex((prefix) => file.startsWith(prefix));
    const rank = index === -1 ? SLOW_FIRST.length : index;
    assert.ok(rank >= last, `${file} starts after a file of a later rank`);
    last = rank;
  }
  for (const prefix of SLOW_FIRST) assert.ok(files.some((file) => file.startsWith(prefix)), `SLOW_FIRST lists ${prefix}, which holds no test file: rename or remove it there`);
  assert.equal(files[0]!.startsWith(SLOW_FIRST[0]!), true);
});
