/**
 * The server kit's shape, read from its syntax trees: no function longer than 120 lines, no import
 * circle, no import out of the kit but to the protocol, the booking half and the result half of the
 * handler apart (what both need sits in lower modules), and the handler's options read by the handler
 * alone (each part gets the settings it uses).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SERVER = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/server');
const files = readdirSync(SERVER)
  .filter((name) => name.endsWith('.ts'))
  .map((name) => join(SERVER, name));
const trees = new Map(files.map((file) => [file, ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)]));

/** The modules a module imports or re-exports (relative specifiers, resolved to their .ts file). */
function importsOf(file: string): string[] {
  const found: string[] = [];
  for (const statement of trees.get(file)!.statements) {
    const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')));
    }
  }
  return found;
}

/**
 * Every module `file` reaches through its imports, itself left out unless a circle leads back to it;
 * `skip(from, to)` leaves out one import (an allowed link, so what lies beyond it is not counted).
 */
function reach(file: string, skip: (from: string, to: string) => boolean = () => false): Set<string> {
  const seen = new Set<string>();
  const next = importsOf(file).filter((to) => !skip(file, to));
  while (next.length > 0) {
    const module = next.pop()!;
    if (seen.has(module) || !trees.has(module)) continue;
    seen.add(module);
    next.push(...importsOf(module).filter((to) => !skip(module, to)));
  }
  return seen;
}

/** The names `file` imports from `module` (a relative specifier resolved as importsOf does). */
function namesImported(file: string, module: string): string[] {
  return trees.get(file)!.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
    if (resolve(dirname(file), statement.moduleSpecifier.text.replace(/\.js$/, '.ts')) !== module) return [];
    const bindings = statement.importClause?.namedBindings;
    return bindings && ts.isNamedImports(bindings) ? bindings.elements.map((element) => element.name.text) : ['(not named imports)'];
  });
}

const at = (name: string) => join(SERVER, `${name}.ts`);

test('no function of src/server is longer than 120 lines', () => {
  const long: string[] = [];
  for (const [file, tree] of trees) {
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const first = tree.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = tree.getLineAndCharacterOfPosition(node.end).line;
        if (last - first + 1 > 120) long.push(`${relative(SERVER, file)}:${first + 1} (${last - first + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  assert.deepEqual(long, []);
});

test('src/server has no import circle', () => {
  const circles = files.filter((file) => reach(file).has(file)).map((file) => relative(SERVER, file));
  assert.deepEqual(circles, []);
});

test('src/server imports nothing outside it but the protocol, and the handler the intent adapter alone', () => {
  const protocol = resolve(SERVER, '../protocol');
  const entry = at('providers');
  const outside = files
    // providers.ts is the package entry wallet-pay-button/server/providers: it re-exports the shipped
    // adapters (checked below) and no module of the kit imports it, so the core reaches no adapter through it.
    .filter((file) => file !== entry)
    .flatMap((file) =>
      importsOf(file)
        .filter((module) => !module.startsWith(SERVER + '/') && !module.startsWith(protocol + '/'))
        .map((module) => `${relative(SERVER, file)} -> ${relative(SERVER, module)}`),
    );
  const entryImports = trees.get(entry)!.statements.filter(
    (statement) => ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier) && !statement.moduleSpecifier.text.startsWith('./'),
  );
  assert.deepEqual(entryImports.map((statement) => statement.getText()), [], 'the providers entry only re-exports what lies outside src/server');
  assert.deepEqual(files.filter((file) => importsOf(file).includes(entry)).map((file) => relative(SERVER, file)), [], 'no module of the kit imports the providers entry');
  // The one link from the core into a provider's folder: the handler builds the intent adapter from
  // its legacy options (serviceUrl, accessKey, productCode), so a merchant without `providers` keeps
  // working. The core names no provider otherwise; every other adapter comes in through `providers`.
  assert.deepEqual(outside, ['handler.ts -> ../providers/esewa-intent/adapter.ts']);
  assert.deepEqual(namesImported(at('handler'), resolve(SERVER, '../providers/esewa-intent/adapter.ts')), ['esewaIntent']);
});

test('the booking half and the result half of the handler import nothing of each other', () => {
  const bookingHalf = ['booking', 'order-lock', 'order-lookup'].map(at);
  const resultHalf = ['delivery', 'reconcile', 'result-routes'].map(at);
  for (const file of [...bookingHalf, ...resultHalf]) assert.ok(trees.has(file), `${relative(SERVER, file)} exists`);
  // Delivery may renew the order's lease that order-lock takes, for the same length, so it may import
  // that one constant and nothing else of it; the link is left out and nothing beyond it may cross.
  const allowed = (from: string, to: string) => from === at('delivery') && to === at('order-lock');
  for (const name of namesImported(at('delivery'), at('order-lock'))) assert.equal(name, 'ORDER_LEASE_MS', 'delivery takes only the lease length from order-lock');
  const crossing = (from: string[], to: string[]) =>
    from.flatMap((file) =>
      [...reach(file, allowed)].filter((module) => to.includes(module)).map((module) => `${relative(SERVER, file)} -> ${relative(SERVER, module)}`),
    );
  assert.deepEqual(crossing(bookingHalf, resultHalf), []);
  assert.deepEqual(crossing(resultHalf, bookingHalf), []);
});

test("the handler's options are read by the handler alone: no other module takes them, and the parts' shared context holds none", () => {
  const takers: string[] = [];
  for (const [file, tree] of trees) {
    const visit = (node: ts.Node): void => {
      if ((ts.isParameter(node) || ts.isPropertySignature(node)) && node.type && node.type.getText(tree) === 'PaymentHandlerOptions') {
        takers.push(`${relative(SERVER, file)}: ${node.getText(tree)}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  assert.deepEqual(
    takers.filter((taker) => !taker.startsWith('handler.ts:')),
    [],
  );
  assert.ok(takers.some((taker) => taker.startsWith('handler.ts:')), 'the handler takes them');
});

test("the merchant's access key is held in one place: the handler hands it to the service client and the merchant key alone", () => {
  const holders = new Set<string>();
  for (const [file, tree] of trees) {
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && node.text === 'accessKey') holders.add(relative(SERVER, file));
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  // types.ts declares the option; the intent service's client and callback check (src/providers/esewa-intent/) sign with it.
  assert.deepEqual([...holders].sort(), ['handler.ts', 'order-tag.ts', 'types.ts']);
});
