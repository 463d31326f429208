/**
 * Each public entry point exports what its doc lists and nothing else: the doc's table of exports
 * against the module's exports as TypeScript sees them (values and types, each with its kind), and
 * the value exports against what the module gives at run time, in both directions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** What an export is, in the words of the docs' "Kind" column. */
type Kind = 'class' | 'function' | 'constant' | 'type';

interface Face {
  /** The package specifier a merchant imports. */
  specifier: string;
  /** The module behind it, relative to the repository. */
  entry: string;
  /** The doc that lists its exports, and the heading the table follows. */
  doc: string;
  heading: string;
  /** How many exports it has at least (default 6), so the comparison never holds on nothing. */
  least?: number;
}

const FACES: readonly Face[] = [
  { specifier: 'wallet-pay-button', entry: 'src/index.ts', doc: 'docs/element.md', heading: '## What the package root exports' },
  {
    specifier: 'wallet-pay-button/protocol',
    entry: 'src/protocol/index.ts',
    doc: 'docs/contract.md',
    heading: '## In TypeScript: `wallet-pay-button/protocol`',
  },
  { specifier: 'wallet-pay-button/server/providers', entry: 'src/server/providers.ts', doc: 'docs/server.md', heading: '## Providers: `wallet-pay-button/server/providers`' },
  {
    specifier: 'wallet-pay-button/server/provider-suite',
    entry: 'src/server/provider-suite.ts',
    doc: 'docs/server.md',
    heading: '### An adapter of your own: `wallet-pay-button/server/provider-suite`',
    least: 3,
  },
];

/** The rows of the table after `heading`: each row's name (in backticks) and kind. */
function documentedExports(doc: string, heading: string): Map<string, string> {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  assert.notEqual(start, -1, `${doc} has the heading "${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^#{1,6} /.test(line)) break;
    if (line.startsWith('|')) rows.push(line.slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim()));
    else if (rows.length > 0) break;
  }
  assert.deepEqual(rows[0]?.slice(0, 2), ['Export', 'Kind'], `${doc}: a table of exports follows "${heading}"`);
  const documented = new Map<string, string>();
  for (const [cell = '', kind = ''] of rows.slice(2)) {
    const name = /^`([^`]+)`$/.exec(cell)?.[1];
    assert.ok(name, `${doc}: "${cell}" is one name in backticks`);
    assert.ok(!documented.has(name), `${doc}: ${name} is listed once`);
    documented.set(name, kind);
  }
  return documented;
}

/** Every export of each module, with its kind, read by the TypeScript checker from the sources. */
function declaredExports(entries: readonly string[]): Map<string, Map<string, Kind>> {
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), { noEmit: true }, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => assert.fail(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')),
  });
  assert.ok(config, 'tsconfig.json parses');
  const program = ts.createProgram(entries, config.options);
  const checker = program.getTypeChecker();
  const result = new Map<string, Map<string, Kind>>();
  for (const entry of entries) {
    const source = program.getSourceFile(entry);
    assert.ok(source, `${entry} is part of the program`);
    const errors = ts.getPreEmitDiagnostics(program, source);
    assert.deepEqual(errors.map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n')), [], `${entry} type-checks`);
    const module = checker.getSymbolAtLocation(source);
    assert.ok(module, `${entry} is a module`);
    const exports = new Map<string, Kind>();
    for (const symbol of checker.getExportsOfModule(module)) exports.set(symbol.name, kindOf(checker, symbol));
    result.set(entry, exports);
  }
  return result;
}

function kindOf(checker: ts.TypeChecker, symbol: ts.Symbol): Kind {
  // `export { type X }` and `export type { X }` give no value, whatever X is.
  const typeOnly = (symbol.declarations ?? []).some(
    (declaration) => ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  if (typeOnly || !(target.flags & ts.SymbolFlags.Value)) return 'type';
  if (target.flags & ts.SymbolFlags.Class) return 'class';
  if (target.flags & ts.SymbolFlags.Function) return 'function';
  return 'constant';
}

/** What a module exports that its doc does not list, what the doc lists that the module lacks, and kinds that differ. */
function compare(documented: Map<string, string>, declared: Map<string, Kind>) {
  return {
    undocumented: [...declared.keys()].filter((name) => !documented.has(name)).sort(),
    missing: [...documented.keys()].filter((name) => !declared.has(name)).sort(),
    wrongKind: [...declared]
      .filter(([name, kind]) => documented.has(name) && documented.get(name) !== kind)
      .map(([name, kind]) => `${name}: documented as ${documented.get(name)}, is a ${kind}`),
  };
}

const declared = declaredExports(FACES.map((face) => join(ROOT, face.entry)));

for (const face of FACES) {
  test(`${face.specifier} exports exactly what ${face.doc} lists, each of the kind it says`, () => {
    const documented = documentedExports(face.doc, face.heading);
    const exports = declared.get(join(ROOT, face.entry))!;
    // Neither side may be empty, or the comparison would hold on nothing.
    const least = face.least ?? 6;
    assert.ok(documented.size >= least && exports.size >= least, `${face.doc} lists ${documented.size} exports, ${face.entry} has ${exports.size}`);
    assert.deepEqual(compare(documented, exports), { undocumented: [], missing: [], wrongKind: [] });
  });

  test(`${face.specifier} gives at run time exactly the values ${face.doc} lists`, async () => {
    // The entry's source (the built entry, as a merchant resolves it, is test/package's).
    const module = (await import(new URL(`../../${face.entry}`, import.meta.url).href)) as Record<string, unknown>;
    const values = [...documentedExports(face.doc, face.heading)].filter(([, kind]) => kind !== 'type').map(([name]) => name);
    assert.deepEqual(Object.keys(module).sort(), values.sort());
  });
}

test('the package root carries no protocol constant, no flow internal and no environment rule', () => {
  const root = declared.get(join(ROOT, 'src/index.ts'))!;
  const leaked = ['CODES', 'IDEMPOTENCY_HEADER', 'PAYMENT_STATUSES', 'BookResult', 'detectEnvironment', 'MOBILE_MAX_WIDTH', 'stringsFor', 'FlowEventMap', 'KeptBooking', 'PaymentSettings', 'UrlRefusal'];
  assert.deepEqual(leaked.filter((name) => root.has(name)), []);
  // The protocol's names a merchant used to take from the root are all on `./protocol` now.
  const protocol = declared.get(join(ROOT, 'src/protocol/index.ts'))!;
  assert.deepEqual(['CODES', 'IDEMPOTENCY_HEADER', 'PAYMENT_STATUSES', 'BookResult', 'OrderReference'].filter((name) => !protocol.has(name)), []);
});

test('the comparison catches an export the doc does not list, a listed name the module lacks, and a wrong kind', () => {
  // A face like the root's with one export too many and one too few, read the same way as the real ones.
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-exports-'));
  try {
    const entry = join(dir, 'face.ts');
    const root = JSON.stringify(join(ROOT, 'src/index.js'));
    writeFileSync(
      entry,
      `export { WalletPayButton, WalletPayEvent, STRINGS_EN } from ${root};\n` +
        `export type { StringTable } from ${root};\n` +
        `export const EXTRA_CONSTANT = 1;\nexport type ExtraType = string;\nexport function extraFunction(): void {}\n`,
    );
    const exports = declaredExports([entry]).get(entry)!;
    const documented = new Map([
      ['WalletPayButton', 'class'],
      ['WalletPayEvent', 'type'],
      ['STRINGS_EN', 'constant'],
      ['StringTable', 'type'],
      ['STRINGS_NE', 'constant'],
    ]);
    assert.deepEqual(compare(documented, exports), {
      undocumented: ['EXTRA_CONSTANT', 'ExtraType', 'extraFunction'],
      missing: ['STRINGS_NE'],
      wrongKind: ['WalletPayEvent: documented as type, is a class'],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
