/**
 * Tests mirror modules: every module of src/ with a function or a class has a test file of its own
 * base name under test/ (`src/check/steps.ts` ↔ `test/node/check/steps.test.ts`), or a folder of
 * them (`src/server/handler.ts` ↔ `test/node/server/handler/`). Where two modules share a base name
 * (`adapter.ts`, `cli.ts`), the test's path must also name the module's folder. The modules without
 * one are listed below, each with why; the list only shrinks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Modules that need no test file of their name: launchers that only call a tested function with
 * `process.argv`, and entries whose functions are one-line wiring of tested modules.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  'src/check/cli.ts': 'a launcher: runCheckCommand(process.argv) (test/node/check/command.test.ts; kit.test.ts runs the launcher)',
  'src/sandbox/cli.ts': 'a launcher of the sandbox command (test/node/sandbox/command.test.ts, cli-errors.test.ts)',
  'src/element/action.ts': "one template literal; every panel's actions are pressed in test/browser/element/",
  'src/element/handoff/styles.ts': 'styles; the hand-off panel tests (test/browser/element/handoff/) render them',
  'src/sandbox/khalti/index.ts': "mounts Khalti's routes on the sandbox (test/node/sandbox/khalti/)",
};

/**
 * Modules with logic and no test file of their name yet, each with the tests that prove it today
 * through other modules. A module leaves this list when its test file comes (a test below says so).
 */
const AWAITING_A_MIRROR: Readonly<Record<string, string>> = {};

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'fixtures') return [];
    return statSync(path).isDirectory() ? walk(path) : [relative(ROOT, path)];
  });
}

/** Whether a module's text declares a function or a class (types and constants alone do not count). */
function hasLogic(text: string): boolean {
  const tree = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node): boolean =>
    ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node) || ts.isMethodDeclaration(node) || !!ts.forEachChild(node, visit);
  return visit(tree);
}

/**
 * The modules of `modules` (paths under src/) with no test file of their name among `tests` (paths
 * under test/): `<base>.test.ts`, or a folder `<base>/` below a kind of tests (not `test/node/` itself)
 * holding tests; when two modules of `all` share a base name, only a test whose path names the
 * module's folder counts.
 */
function unmirrored(modules: readonly string[], tests: readonly string[], all: readonly string[] = modules): string[] {
  const bases = new Map<string, number>();
  for (const module of all) bases.set(basename(module, '.ts'), (bases.get(basename(module, '.ts')) ?? 0) + 1);
  return modules.filter((module) => {
    const base = basename(module, '.ts');
    const folder = dirname(relative('src', module));
    return !tests.some((path) => {
      const inFolder = path.split('/').length > 3 && basename(dirname(path)) === base;
      const named = basename(path).replace(/\.test\.m?ts$/, '') === base || inFolder;
      // A shared base name: the test's own folder (the one holding it, or its folder of the module's
      // name) ends with the module's folder, so a test of src/sandbox/epay/admin.ts is not one of src/sandbox/admin.ts.
      const holder = inFolder ? dirname(dirname(path)) : dirname(path);
      return named && (bases.get(base) === 1 || folder === '.' || `/${holder}`.endsWith(`/${folder}`));
    });
  });
}

const modules = walk(join(ROOT, 'src')).filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
const withLogic = modules.filter((path) => hasLogic(readFileSync(join(ROOT, path), 'utf8')));
const tests = walk(join(ROOT, 'test')).filter((path) => /\.test\.m?ts$/.test(path));

test('every module of src/ with a function or a class has a test file of its name, but those listed with a reason', () => {
  const missing = unmirrored(withLogic, tests, modules).filter((module) => !(module in EXEMPT) && !(module in AWAITING_A_MIRROR));
  assert.deepEqual(missing, [], 'add test/node/<folder>/<module>.test.ts (or test/browser/...) for each');
});

test('the lists hold only modules that exist, have logic and still lack a test file of their name', () => {
  const lacking = new Set(unmirrored(withLogic, tests, modules));
  for (const module of [...Object.keys(EXEMPT), ...Object.keys(AWAITING_A_MIRROR)]) {
    assert.ok(modules.includes(module), `${module} is listed but does not exist`);
    assert.ok(withLogic.includes(module), `${module} is listed but has no function or class`);
  }
  const mirroredNow = Object.keys(AWAITING_A_MIRROR).filter((module) => !lacking.has(module));
  assert.deepEqual(mirroredNow, [], 'these have a test file of their name now: take them off AWAITING_A_MIRROR');
  for (const [module, why] of Object.entries({ ...EXEMPT, ...AWAITING_A_MIRROR })) assert.ok(why.length > 10, `${module} says why`);
});

test('hasLogic counts functions, arrows, methods and classes, not types, interfaces or constants', () => {
  assert.equal(hasLogic("export interface A { run(x: number): void; cb: () => void }\nexport type B = (x: string) => number;\nexport const C = { a: 1 } as const;\nexport { D } from './d.js';"), false);
  for (const text of ['export function f() {}', 'export const f = () => 1;', 'export const o = { m() { return 1; } };', 'export class K {}', 'const g = function () {};']) {
    assert.equal(hasLogic(text), true, text);
  }
});

test('unmirrored: a test file or folder of the base name counts; a shared base name needs the folder in the path', () => {
  const modules = ['src/check/run.ts', 'src/server/handler.ts', 'src/providers/epay/adapter.ts', 'src/providers/khalti/adapter.ts', 'src/define.ts', 'src/core/lonely.ts'];
  const tests = ['test/node/check/run.test.ts', 'test/node/server/handler/orders.test.ts', 'test/node/providers/epay/adapter.test.ts', 'test/node/define.test.ts'];
  assert.deepEqual(unmirrored(modules, tests), ['src/providers/khalti/adapter.ts', 'src/core/lonely.ts']);
  assert.deepEqual(unmirrored(['src/check/command.ts', 'src/sandbox/command.ts'], ['test/node/sandbox/command.test.ts']), ['src/check/command.ts'], "the sandbox's command test is not the checker's");
  assert.deepEqual(unmirrored(['src/sandbox/admin.ts', 'src/sandbox/epay/admin.ts'], ['test/node/sandbox/epay/admin.test.ts']), ['src/sandbox/admin.ts'], "the ePay emulation's admin test is not the sandbox's");
  assert.deepEqual(unmirrored(['src/server/node.ts'], ['test/node/docs.test.ts']), ['src/server/node.ts'], 'test/node/ itself is a kind of tests, not a folder named after a module');
  assert.deepEqual(unmirrored(['src/element/i18n/handoff.ts'], ['test/browser/element/handoff/qr.test.ts'], ['src/element/i18n/handoff.ts', 'src/element/i18n/en/handoff.ts']), ['src/element/i18n/handoff.ts'], 'a base name shared with a module without logic still needs the folder');
});
