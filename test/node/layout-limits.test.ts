/**
 * Size limits of the source, read from the files and their syntax trees: no module of src/ is longer
 * than 500 lines and no class longer than 300 (from the line of its `class` keyword to the line of its
 * closing brace). A class under the limit whose weight moved into a neighbour file still shows here,
 * as that file's length. A module or class that grows past a limit is split by job; the classes
 * still over it are listed below, each with its length today (a ceiling: it may only shrink) and why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_FILE_LINES = 500;
const MAX_CLASS_LINES = 300;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** The lines of a text, as an editor numbers them (a final newline opens no line of its own). */
function lineCount(text: string): number {
  if (text === '') return 0;
  return text.replace(/\r?\n$/, '').split(/\r?\n/).length;
}

/** Every class of a module (declared or an expression) with its first line and its length in lines. */
function classSpans(fileName: string, text: string): { name: string; line: number; lines: number }[] {
  const tree = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const spans: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) {
      // From the `class` keyword: the JSDoc and decorators above it are not the class's body.
      const keyword = node.getChildren(tree).find((child) => child.kind === ts.SyntaxKind.ClassKeyword)!;
      const first = tree.getLineAndCharacterOfPosition(keyword.getStart(tree)).line;
      const last = tree.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ name: node.name?.text ?? '(anonymous)', line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return spans;
}

/**
 * Classes over the limit today, by `path name`, each with its length (it may not grow) and what its
 * split is. The list only shrinks: a class back under the limit must leave it.
 */
const OVER_THE_LIMIT: Readonly<Record<string, { lines: number; why: string }>> = {};

const modules = walk(join(ROOT, 'src')).filter((path) => path.endsWith('.ts'));

test(`no module of src/ is longer than ${MAX_FILE_LINES} lines`, () => {
  assert.ok(modules.length > 50, `the walk found the modules (${modules.length})`);
  const long = modules
    .map((path) => ({ path: relative(ROOT, path), lines: lineCount(readFileSync(path, 'utf8')) }))
    .filter(({ lines }) => lines > MAX_FILE_LINES)
    .map(({ path, lines }) => `${path} (${lines} lines)`);
  assert.deepEqual(long, [], 'split each by job');
});

test(`no class of src/ is longer than ${MAX_CLASS_LINES} lines`, () => {
  const spans = modules.flatMap((path) => classSpans(path, readFileSync(path, 'utf8')).map((span) => ({ ...span, path: relative(ROOT, path) })));
  assert.ok(spans.some(({ name }) => name === 'WalletPayButton'), 'the walk found the classes');
  const long = spans.filter(({ lines }) => lines > MAX_CLASS_LINES);
  const unlisted = long.filter(({ path, name }) => !(`${path} ${name}` in OVER_THE_LIMIT)).map(({ path, name, line, lines }) => `${path}:${line} ${name} (${lines} lines)`);
  assert.deepEqual(unlisted, [], 'split each by job: plain functions over an explicit context, which the class delegates to');
  const grown = long
    .filter(({ path, name, lines }) => lines > (OVER_THE_LIMIT[`${path} ${name}`]?.lines ?? Infinity))
    .map(({ path, name, lines }) => `${path} ${name}: ${lines} lines, listed at ${OVER_THE_LIMIT[`${path} ${name}`]!.lines}`);
  assert.deepEqual(grown, [], 'a listed class may only shrink');
  const under = Object.keys(OVER_THE_LIMIT).filter((key) => !long.some(({ path, name }) => `${path} ${name}` === key));
  assert.deepEqual(under, [], 'these are under the limit (or gone) now: take them off OVER_THE_LIMIT');
  for (const [key, { why }] of Object.entries(OVER_THE_LIMIT)) assert.ok(why.length > 40, `${key} says why`);
});

test('lineCount counts lines as an editor numbers them', () => {
  assert.equal(lineCount(''), 0);
  assert.equal(lineCount('a'), 1);
  assert.equal(lineCount('a\n'), 1);
  assert.equal(lineCount('a\nb\n'), 2);
  assert.equal(lineCount('a\r\nb\r\n\n'), 3);
});

test('classSpans counts a class from its `class` line to its closing brace, its doc and decorators left out', () => {
  const text = ['/** Doc. */', '@decorated()', 'export class A {', '  x = 1;', '}', 'const B = class {', '  y() {', '    return class C {};', '  }', '};', ''].join('\n');
  assert.deepEqual(classSpans('a.ts', text), [
    { name: 'A', line: 3, lines: 3 },
    { name: '(anonymous)', line: 6, lines: 5 },
    { name: 'C', line: 8, lines: 1 },
  ]);
});

test('the limits catch a module and a class one line past them, and pass them at the limit', () => {
  const classOf = (lines: number) => ['class K {', ...Array.from({ length: lines - 2 }, (_, i) => `  f${i} = ${i};`), '}'].join('\n');
  assert.equal(classSpans('k.ts', classOf(MAX_CLASS_LINES))[0]!.lines, MAX_CLASS_LINES);
  assert.equal(classSpans('k.ts', classOf(MAX_CLASS_LINES + 1))[0]!.lines, MAX_CLASS_LINES + 1);
  assert.equal(lineCount('x\n'.repeat(MAX_FILE_LINES + 1)), MAX_FILE_LINES + 1);
});
