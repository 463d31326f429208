/**
 * The Node suite's compiled copy (scripts/compiled-tests.mjs): built into a folder of this test's own
 * (the suite itself runs from test-results/compiled/, which it must not touch), each TypeScript file
 * compiled beside a link to itself, everything else linked, and a compiled test file run by plain node.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledPath, compileTests, ROOT } from '../../../scripts/compiled-tests.mjs';

let out: string;
let count: number;
before(async () => {
  // Outside the repository: the copy's node_modules is a link, so its imports still resolve.
  out = join(mkdtempSync(join(tmpdir(), 'wpb-compiled-')), 'copy');
  count = await compileTests(out);
});
after(() => rmSync(join(out, '..'), { recursive: true, force: true }));

test('each TypeScript file is compiled beside a link to itself, with a source map naming it', () => {
  assert.ok(count > 100, `compiled ${count} files`);
  const js = compiledPath('src/server/amounts.ts', out);
  assert.ok(js.endsWith('/src/server/amounts.js'));
  assert.equal(lstatSync(js).isSymbolicLink(), false, 'compiled, not linked');
  assert.doesNotMatch(readFileSync(js, 'utf8'), /: number\b|interface /, 'no TypeScript left');
  assert.equal(readlinkSync(join(out, 'src/server/amounts.ts')), join(ROOT, 'src/server/amounts.ts'));
  const map = JSON.parse(readFileSync(`${js}.map`, 'utf8')) as { sources: string[] };
  assert.ok(map.sources.some((source) => source.endsWith('src/server/amounts.ts')), map.sources.join(', '));
});

test('every other file and top-level entry is a link to the original, dist/ even before a build', () => {
  for (const entry of ['node_modules', 'docs', 'examples', 'package.json', 'dist']) {
    assert.equal(readlinkSync(join(out, entry)), join(ROOT, entry), entry);
  }
  assert.equal(readlinkSync(join(out, 'scripts/compiled-tests.mjs')), join(ROOT, 'scripts/compiled-tests.mjs'));
  assert.ok(existsSync(join(out, 'vite.config.js')), 'vite.config.ts is compiled too (the e2e support imports it)');
  assert.equal(existsSync(join(out, 'test-results')), false, 'the copy holds no copy of itself');
});

test('a compiled test file runs with plain node, without tsx, and passes', () => {
  // Without this runner's NODE_TEST_CONTEXT, which would make the child report to it instead of printing.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--enable-source-maps', '--test', compiledPath('test/node/server/amounts.test.ts', out)], {
    encoding: 'utf8',
    env,
    timeout: 60_000,
  });
  assert.equal(run.error, undefined, String(run.error));
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /# pass [1-9]/);
  assert.match(run.stdout, /# fail 0/);
});
