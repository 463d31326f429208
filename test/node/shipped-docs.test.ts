/**
 * What the package ships cites only what the package ships: every relative link of every shipped doc
 * (package.json `files`: docs/*.md, README.md, the examples' READMEs) names a shipped file, no shipped
 * doc sends the reader to the playground's `phone.html`, and the docs of the book proxy contract name
 * no repository path or script (`src/…`, `test/…`, `npm run …`), which an installed package lacks.
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

const DOCS = ['README.md', ...walk('docs'), ...walk('examples')].filter((path) => path.endsWith('.md') && shipped(path));

/** The docs of the book proxy contract, for shops that install the package and have no repository. */
const CONTRACT_DOCS = ['docs/backends.md', 'docs/contract.md', 'examples/backends/php/README.md', 'examples/backends/python/README.md'];
const REPOSITORY_ONLY = /(?<![\w./-])(?:(?:src|test|bench|scripts|demo)\/[\w./*-]*|phone\.html|npm run [\w:-]+)/g;

test('the shipped docs are found by package.json files', () => {
  for (const doc of ['README.md', 'docs/backends.md', 'docs/server.md', 'examples/backends/php/README.md']) assert.ok(DOCS.includes(doc), doc);
  assert.ok(!shipped('src/check/run.ts') && !shipped('test/node/shipped-docs.test.ts') && !shipped('demo/phone.html'));
});

for (const doc of DOCS) {
  test(`${doc}: every relative link names a shipped file`, () => {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    const bad: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
      const path = relative(ROOT, normalize(join(ROOT, dirname(doc), target!))).replace(/\\/g, '/').replace(/\/$/, '');
      if (!existsSync(join(ROOT, path)) || !shipped(path)) bad.push(`${target} (${path})`);
    }
    assert.deepEqual(bad, []);
    assert.doesNotMatch(text, /phone\.html/, 'the playground\'s phone.html is not shipped');
  });
}

for (const doc of CONTRACT_DOCS) {
  test(`${doc} names no repository path or script`, () => {
    assert.deepEqual(readFileSync(join(ROOT, doc), 'utf8').match(REPOSITORY_ONLY) ?? [], []);
  });
}
