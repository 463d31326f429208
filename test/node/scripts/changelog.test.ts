/**
 * CHANGELOG.md names only versions the package has: each release heading is package.json's version or
 * "Unreleased", and no heading at any level names another version (it once headed 0.3 and 0.4 while
 * package.json said 0.1.0).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The problems of a changelog's headings against the package's `version`; empty when it is honest. */
function headingProblems(changelog: string, version: string): string[] {
  const problems: string[] = [];
  for (const [, level, title] of changelog.matchAll(/^(#{2,6}) +(.+?) *$/gm)) {
    if (level === '##' && title !== version && title !== 'Unreleased') problems.push(`"## ${title}" is neither ${version} nor Unreleased`);
    for (const named of title!.match(/\b\d+\.\d+(?:\.\d+)?\b/g) ?? []) {
      if (named !== version) problems.push(`"${level} ${title}" names version ${named}; package.json says ${version}`);
    }
  }
  return problems;
}

test("every version heading of CHANGELOG.md is package.json's version or Unreleased", () => {
  const { version } = JSON.parse(read('package.json')) as { version: string };
  const changelog = read('CHANGELOG.md');
  assert.deepEqual(headingProblems(changelog, version), []);
  assert.ok(changelog.includes(`\n## ${version}\n`), `CHANGELOG.md has a section for ${version}`);
  const releases = [...changelog.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  assert.ok(releases.indexOf('Unreleased') <= 0, 'Unreleased, when there, comes first');
});

test('the check catches the headings CHANGELOG.md had: "Unreleased (0.4)", "0.3", "0.1"', () => {
  const old = '# Changelog\n\n## Unreleased (0.4)\n\n- a\n\n## 0.3\n\n- b\n\n## 0.1\n\n- c\n';
  assert.deepEqual(headingProblems(old, '0.1.0'), [
    '"## Unreleased (0.4)" is neither 0.1.0 nor Unreleased',
    '"## Unreleased (0.4)" names version 0.4; package.json says 0.1.0',
    '"## 0.3" is neither 0.1.0 nor Unreleased',
    '"## 0.3" names version 0.3; package.json says 0.1.0',
    '"## 0.1" is neither 0.1.0 nor Unreleased',
    '"## 0.1" names version 0.1; package.json says 0.1.0',
  ]);
  assert.deepEqual(headingProblems('## Unreleased\n\n## 0.1.0\n\n### Round 4\n', '0.1.0'), []);
});
