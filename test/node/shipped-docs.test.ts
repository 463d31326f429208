/**
 * What the package ships cites only what the package ships: every relative link of every shipped doc
 * (package.json `files`: README.md, CHANGELOG.md, docs/*.md, the examples' READMEs) names a shipped
 * file, and no shipped doc names a repository path or script (`src/…`, `test/…`, `phone.html`,
 * `npm run …`), which an installed package lacks. The README's links work on the registry's package
 * page, which resolves no relative link: each is an absolute address on a CDN serving npm packages, at
 * package.json's version, of a file the package ships.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FILES = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files;

/** Whether a repository path is in the package, by package.json `files` (a folder, a file or `dir/*.ext`). */
function shipped(path: string): boolean {
  return FILES.some((entry) => {
    if (entry.includes('*')) {
      const [folder, pattern] = [dirname(entry), entry.slice(entry.lastIndexOf('/') + 1)];
      const re = new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`);
      return dirname(path) === folder && re.test(path.slice(path.lastIndexOf('/') + 1));
    }
    return path === entry || path.startsWith(`${entry}/`);
  });
}

function walk(folder: string): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = `${folder}/${name}`;
    if (name === 'node_modules') return [];
    return statSync(join(ROOT, path)).isDirectory() ? walk(path) : [path];
  });
}

const DOCS = ['README.md', 'CHANGELOG.md', ...walk('docs'), ...walk('examples')].filter((path) => path.endsWith('.md') && shipped(path));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const REPOSITORY_ONLY = /(?<![\w./-])(?:(?:src|test|bench|scripts|demo)\/[\w./*-]*|phone\.html|npm run [\w:-]+)/g;

/**
 * What a shipped doc says to its reader. Left out: in the README, the two set-up commands it opens with
 * and its "Working on this repository" section, which say they are for a clone of the repository
 * (the README is the repository's front page as well as the package's); in an example's README, the
 * `npm run` scripts its own package.json defines. CONTRIBUTING.md is not shipped (package.json
 * `files` leaves it out): it is for contributors, so it names the repository's files freely.
 */
function forPackageUsers(doc: string, text: string): string {
  // An example's README may run the scripts of the example's own package.json, which ships beside it.
  const own = join(ROOT, dirname(doc), 'package.json');
  if (doc.startsWith('examples/') && existsSync(own)) {
    const scripts = Object.keys((JSON.parse(readFileSync(own, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {});
    return text.replace(/npm run ([\w:-]+)/g, (command, name: string) => (scripts.includes(name) ? '' : command));
  }
  if (doc !== 'README.md') return text;
  const opening = /^# [^\n]*\n+```sh\n[\s\S]*?```\n/.exec(text);
  assert.ok(opening, 'the README opens with its set-up commands');
  const rest = text.slice(opening[0].length);
  assert.match(rest.slice(0, 200), /for a clone of the repository/, 'the README says its first commands are for a clone of the repository');
  const start = rest.indexOf('\n## Working on this repository\n');
  assert.notEqual(start, -1, 'the README has its contributors\' section');
  const section = rest.slice(start + 1);
  assert.match(section.split('\n').slice(1, 3).join(' '), /for a clone of the repository; nothing in it is part of the package/);
  const end = section.search(/\n(?:## |\[[\w-]+\]: )/);
  return rest.slice(0, start) + (end === -1 ? '' : section.slice(end));
}

/** Every link target of a markdown text: inline `](target)` and reference definitions `[name]: target`. */
function linkTargets(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s]+)\)|^\[[^\]]+\]:\s+(\S+)/gm)].map((match) => (match[1] ?? match[2])!);
}

test('the shipped docs are found by package.json files', () => {
  for (const doc of ['README.md', 'CHANGELOG.md', 'docs/backends.md', 'docs/server.md', 'examples/backends/php/README.md']) assert.ok(DOCS.includes(doc), doc);
  assert.ok(!shipped('src/check/run.ts') && !shipped('test/node/shipped-docs.test.ts') && !shipped('demo/phone.html'));
  // CONTRIBUTING.md is for contributors (the suite's installs and versions): it stays in the repository.
  assert.ok(!DOCS.includes('CONTRIBUTING.md') && !shipped('CONTRIBUTING.md'));
});

test('README.md: every link is a versioned CDN address of a shipped file, at package.json\'s version', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const bad: string[] = [];
  let cdn = 0;
  for (const target of linkTargets(readme)) {
    if (target.startsWith('#')) continue;
    const match = /^https:\/\/(?:cdn\.jsdelivr\.net\/npm|unpkg\.com)\/wallet-pay-button@([^/]+)\/([^#?]+)/.exec(target);
    if (!match) {
      // A relative link opens nowhere on the registry's page.
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) bad.push(`${target}: a relative link`);
      continue;
    }
    cdn++;
    const [, version, path] = match;
    if (version !== VERSION) bad.push(`${target}: version ${version}, package.json says ${VERSION}`);
    if (!existsSync(join(ROOT, path!)) || !shipped(path!)) bad.push(`${target}: ${path} is not a file the package ships`);
  }
  assert.ok(cdn >= 10, `the README links its documents and pictures by CDN address (${cdn})`);
  assert.deepEqual(bad, []);
});

for (const doc of DOCS) {
  test(`${doc}: every relative link names a shipped file`, () => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const bad: string[] = [];
    for (const link of linkTargets(text)) {
      const target = link.split('#')[0]!;
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const path = relative(ROOT, normalize(join(ROOT, dirname(doc), target))).replace(/\\/g, '/').replace(/\/$/, '');
      if (!existsSync(join(ROOT, path)) || !shipped(path)) bad.push(`${target} (${path})`);
    }
    assert.deepEqual(bad, []);
    assert.doesNotMatch(text, /phone\.html/, 'the playground\'s phone.html is not shipped');
  });
}

for (const doc of DOCS) {
  test(`${doc} names no repository path or script`, () => {
    const text = forPackageUsers(doc, readFileSync(join(ROOT, doc), 'utf8'));
    const found = text.split('\n').flatMap((line, index) => (line.match(REPOSITORY_ONLY) ?? []).map((name) => `${index + 1}: ${name}`));
    assert.deepEqual(found, []);
  });
}
