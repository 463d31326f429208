/**
 * Each public entry point exports what its doc lists and nothing else: the doc's table of exports (or,
 * for the small entries, its one sentence "`entry` exports `a`, `b`; types `C`") against the module's
 * exports as TypeScript sees them (values and types, each with its kind), and the value exports
 * against what the module gives at run time, in both directions. Every module entry of package.json
 * has its list, and the faces stay small: what a merchant writes, not what the kit uses inside.
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
  /** The doc that lists its exports, and the heading its table follows (none: the doc's sentence "`specifier` exports ..."). */
  doc: string;
  heading?: string;
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
  { specifier: 'wallet-pay-button/define', entry: 'src/define.ts', doc: 'docs/distribution.md', least: 1 },
  { specifier: 'wallet-pay-button/react', entry: 'src/react.ts', doc: 'docs/distribution.md', least: 3 },
  { specifier: 'wallet-pay-button/server', entry: 'src/server/index.ts', doc: 'docs/server.md' },
  { specifier: 'wallet-pay-button/server/node', entry: 'src/server/node.ts', doc: 'docs/server.md', least: 2 },
  { specifier: 'wallet-pay-button/server/postgres', entry: 'src/server/postgres.ts', doc: 'docs/server.md' },
  { specifier: 'wallet-pay-button/server/mysql', entry: 'src/server/mysql.ts', doc: 'docs/server.md' },
  { specifier: 'wallet-pay-button/server/redis', entry: 'src/server/redis.ts', doc: 'docs/server.md', least: 4 },
  { specifier: 'wallet-pay-button/server/store-suite', entry: 'src/server/store-suite.ts', doc: 'docs/server.md', least: 3 },
  { specifier: 'wallet-pay-button/sandbox', entry: 'src/sandbox/index.ts', doc: 'docs/sandbox.md' },
  { specifier: 'wallet-pay-button/testing', entry: 'src/testing/index.ts', doc: 'docs/sandbox.md' },
  { specifier: 'wallet-pay-button/check', entry: 'src/check/index.ts', doc: 'docs/sandbox.md' },
];

/**
 * The most names an entry may export, and all entries together: a merchant's server writes about ten
 * names of `./server`; the types of members and arguments are reached through the ones listed.
 */
const MOST_NAMES: Readonly<Record<string, number>> = { 'wallet-pay-button/server': 15, 'wallet-pay-button/check': 6 };
const MOST_NAMES_IN_ALL = 120;

/** The doc's list of a face's exports: its table, or its sentence. */
function documentedFace(face: Face): Map<string, string> {
  return face.heading ? documentedExports(face.doc, face.heading) : documentedSentence(face.doc, face.specifier);
}

/**
 * The names of the sentence that starts "`specifier` exports" (up to a blank line or the next entry's
 * name): the backticked names before the word "types" are values (kind `value`), the ones after it types.
 */
function documentedSentence(doc: string, specifier: string): Map<string, string> {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const opening = `\`${specifier}\` exports`;
  const start = text.indexOf(opening);
  assert.notEqual(start, -1, `${doc} says "${opening}"`);
  assert.equal(text.indexOf(opening, start + 1), -1, `${doc} lists ${specifier} once`);
  const rest = text.slice(start + opening.length);
  const end = Math.min(...[rest.search(/\n\s*\n/), rest.indexOf('`wallet-pay-button')].map((at) => (at < 0 ? rest.length : at)));
  const sentence = rest.slice(0, end);
  const split = sentence.search(/\btypes\b/);
  const documented = new Map<string, string>();
  for (const [part, kind] of [[split < 0 ? sentence : sentence.slice(0, split), 'value'], [split < 0 ? '' : sentence.slice(split), 'type']] as const) {
    for (const match of part.matchAll(/`([A-Za-z_]\w*)`/g)) {
      assert.ok(!documented.has(match[1]!), `${doc}: ${match[1]} is listed once for ${specifier}`);
      documented.set(match[1]!, kind);
    }
  }
  return documented;
}

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
function declaredExports(entries: readonly string[], typeErrors?: Map<string, string[]>): Map<string, Map<string, Kind>> {
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
    const errors = ts.getPreEmitDiagnostics(program, source).map((error) => ts.flattenDiagnosticMessageText(error.messageText, '\n'));
    // Kept for the entry's own test, when asked for, so one entry's error fails that entry alone.
    if (typeErrors) typeErrors.set(entry, errors);
    else assert.deepEqual(errors, [], `${entry} type-checks`);
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
    // A sentence says `value` for a class, a function or a constant alike.
    wrongKind: [...declared]
      .filter(([name, kind]) => documented.has(name) && documented.get(name) !== (documented.get(name) === 'value' && kind !== 'type' ? 'value' : kind))
      .map(([name, kind]) => `${name}: documented as ${documented.get(name)}, is a ${kind}`),
  };
}

const typeErrors = new Map<string, string[]>();
const declared = declaredExports(
  FACES.map((face) => join(ROOT, face.entry)),
  typeErrors,
);

for (const face of FACES) {
  test(`${face.specifier} exports exactly what ${face.doc} lists, each of the kind it says`, () => {
    assert.deepEqual(typeErrors.get(join(ROOT, face.entry)), [], `${face.entry} type-checks`);
    const documented = documentedFace(face);
    const exports = declared.get(join(ROOT, face.entry))!;
    // Neither side may be empty, or the comparison would hold on nothing.
    const least = face.least ?? 6;
    assert.ok(documented.size >= least && exports.size >= least, `${face.doc} lists ${documented.size} exports, ${face.entry} has ${exports.size}`);
    assert.deepEqual(compare(documented, exports), { undocumented: [], missing: [], wrongKind: [] });
  });

  test(`${face.specifier} gives at run time exactly the values ${face.doc} lists`, async () => {
    // The entry's source (the built entry, as a merchant resolves it, is test/package's).
    const module = (await import(new URL(`../../${face.entry.replace(/\.ts$/, '.js')}`, import.meta.url).href)) as Record<string, unknown>;
    const values = [...documentedFace(face)].filter(([, kind]) => kind !== 'type').map(([name]) => name);
    assert.deepEqual(Object.keys(module).sort(), values.sort());
  });
}

test('every module entry of package.json has its list of exports, and the faces stay small', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const modules = Object.keys(pkg.exports)
    .filter((key) => !key.endsWith('.json'))
    .map((key) => (key === '.' ? 'wallet-pay-button' : `wallet-pay-button/${key.slice(2)}`));
  assert.deepEqual(modules.filter((specifier) => !FACES.some((face) => face.specifier === specifier)), [], 'every entry is listed in the docs');
  const counts = Object.fromEntries(FACES.map((face) => [face.specifier, declared.get(join(ROOT, face.entry))!.size]));
  for (const [specifier, most] of Object.entries(MOST_NAMES)) assert.ok(counts[specifier]! <= most, `${specifier} exports ${counts[specifier]} names, at most ${most}`);
  const all = Object.values(counts).reduce((sum, count) => sum + count, 0);
  assert.ok(all <= MOST_NAMES_IN_ALL, `the entries export ${all} names in all, at most ${MOST_NAMES_IN_ALL}: ${JSON.stringify(counts)}`);
  // What moved off `./server`: the store's and the providers' contracts have the entries that write them; the service's parts are internal.
  const server = declared.get(join(ROOT, 'src/server/index.ts'))!;
  const internal = ['createServiceClient', 'verifyCallback', 'createSignature', 'verifySignature', 'SIGNED_FIELDS', 'ServiceClient', 'StoredBooking', 'PaymentProvider'];
  assert.deepEqual(internal.filter((name) => server.has(name)), []);
  assert.ok(declared.get(join(ROOT, 'src/server/store-suite.ts'))!.has('StoredBooking'));
  assert.ok(declared.get(join(ROOT, 'src/server/provider-suite.ts'))!.has('PaymentProvider'));
});

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
