/**
 * scripts/lines.mjs: lines per folder of src/ and the part outside the providers' folders, counted as
 * `wc -l` counts them, on a tree of its own and on the project's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isProviderFolder, lineCount, readTree, report, tally } from '../../../scripts/lines.mjs';

// The repository's real root, also from the Node suite's compiled copy (whose .ts files are links).
const ROOT = dirname(realpathSync(join(import.meta.dirname, '../../../package.json')));

test('lineCount counts newlines, as wc -l does', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('one'), 0);
  assert.equal(lineCount('one\n'), 1);
  assert.equal(lineCount('one\n\ntwo\nthree'), 3);
});

test("a provider's folder is a subfolder of src/providers, src/sandbox or src/check, at any depth", () => {
  for (const folder of ['src/providers/khalti', 'src/sandbox/epay', 'src/check/esewa-intent', 'src/sandbox/esewa-intent/pages']) {
    assert.equal(isProviderFolder(folder), true, folder);
  }
  for (const folder of ['src/sandbox', 'src/check', 'src/providers', 'src/server', 'src', 'src/element/i18n', 'src/sandboxes/x']) {
    assert.equal(isProviderFolder(folder), false, folder);
  }
});

test('tally sums each folder\'s own files and splits the whole into providers\' and outside', () => {
  const result = tally([
    ['src/sandbox/clock.ts', 10],
    ['src/sandbox/khalti/routes.ts', 7],
    ['src/sandbox/khalti/page.ts', 3],
    ['src/server/handler.ts', 20],
    ['src/check/epay/steps.ts', 5],
  ]);
  assert.deepEqual([...result.folders], [['src/check/epay', 5], ['src/sandbox', 10], ['src/sandbox/khalti', 10], ['src/server', 20]]);
  assert.deepEqual({ all: result.all, providers: result.providers, outside: result.outside }, { all: 45, providers: 15, outside: 30 });
  const lines = report(result);
  assert.match(lines.find((line) => line.startsWith('src/sandbox/khalti'))!, /\s10 {2}\(provider\)$/);
  assert.match(lines.find((line) => line.startsWith('src/sandbox '))!, /\s10$/);
  assert.match(lines.at(-1)!, /^outside the providers' folders\s+30$/);
});

test('readTree reads .ts files only, in every subfolder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lines-'));
  try {
    mkdirSync(join(dir, 'src/providers/khalti'), { recursive: true });
    writeFileSync(join(dir, 'src/a.ts'), 'a\nb\n');
    writeFileSync(join(dir, 'src/notes.md'), 'x\ny\nz\n');
    writeFileSync(join(dir, 'src/providers/khalti/adapter.ts'), 'k\n');
    assert.deepEqual(readTree(join(dir, 'src'), dir).sort(), [['src/a.ts', 2], ['src/providers/khalti/adapter.ts', 1]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the command prints the project's totals, and all is providers' plus outside", () => {
  const out = execFileSync(process.execPath, [join(ROOT, 'scripts/lines.mjs')], { encoding: 'utf8', timeout: 30_000 });
  const total = (name: string) => Number(new RegExp(`^${name}\\s+(\\d+)$`, 'm').exec(out)?.[1]);
  assert.ok(total('all of src') > 0, out);
  assert.equal(total('all of src'), total("in the providers' folders") + total("outside the providers' folders"), out);
  assert.match(out, /^src\/server\s+\d+$/m);
});
