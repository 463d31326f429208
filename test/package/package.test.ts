/**
 * The package as npm publishes it: what `npm pack` ships, that every export resolves to a built file,
 * that the root imports in Node without a DOM, that the declarations type-check a consumer, that
 * bundlers keep `./define` and drop what the root does not use, and that the manifest matches the
 * element's JSDoc. Runs after `npm run build` (see `npm run test:dist`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DIST, ROOT } from './support.js';
import { packedPaths } from './tarball.js';

const run = promisify(execFile);

interface PackageJson {
  exports: Record<string, string | Record<string, string>>;
  customElements: string;
  sideEffects: string[];
  files: string[];
  bin: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  dependencies: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** Every file an export or field points to, as a path without the leading `./`. */
function exportTargets(): string[] {
  const targets = new Set<string>();
  for (const value of Object.values(pkg.exports)) {
    if (typeof value === 'string') targets.add(value);
    else for (const target of Object.values(value)) targets.add(target);
  }
  targets.add(pkg.customElements);
  for (const target of Object.values(pkg.bin)) targets.add(target);
  targets.add('./dist/cdn/wallet-pay-button.min.js');
  targets.add('./dist/cdn/wallet-pay-button.iife.min.js');
  return [...targets].map((target) => target.replace(/^\.\//, ''));
}

test('exports list the public entry points, each with its types first and no condition pointing at sources', () => {
  assert.deepEqual(Object.keys(pkg.exports), [
    '.',
    './define',
    './protocol',
    './server',
    './server/node',
    './server/postgres',
    './server/mysql',
    './server/redis',
    './server/store-suite',
    './server/providers',
    './server/provider-suite',
    './sandbox',
    './check',
    './testing',
    './react',
    './contract.json',
    './signature-vectors.json',
    './custom-elements.json',
    './package.json',
  ]);
  for (const [name, value] of Object.entries(pkg.exports)) {
    if (typeof value === 'string') continue;
    assert.equal(Object.keys(value)[0], 'types', `${name}: "types" must come first so TypeScript picks it`);
    assert.ok(value['default'], `${name} has a default target`);
    for (const [condition, target] of Object.entries(value)) assert.match(target, /^\.\/dist\//, `${name} [${condition}] points into dist/, which is shipped`);
  }
  assert.equal(pkg.customElements, './dist/custom-elements.json');
  // ./react needs @lit/react, but a shop without React must not install it: an optional peer.
  assert.equal(pkg.dependencies['@lit/react'], undefined, '@lit/react is not a dependency');
  assert.equal(pkg.peerDependenciesMeta['@lit/react']?.optional, true, '@lit/react is an optional peer of ./react');
  assert.equal(pkg.peerDependenciesMeta['react']?.optional, true, 'react is an optional peer');
});

test('npm pack ships the build, the bin, the README and the docs with their pictures, and nothing else', async () => {
  const paths = await packedPaths();
  const unexpected = paths.filter((path) => !/^(package\.json|README\.md|CHANGELOG\.md|LICENSE(\.md)?|contract\.json|signature-vectors\.json|bin\/[^/]+\.mjs|dist\/.+|docs\/[\w-]+\.md|docs\/images\/[\w-]+\.png|examples\/.+)$/.test(path));
  assert.deepEqual(unexpected, [], 'only the build, the bin, the README, the changelog, the docs, the examples and the licence are packed');
  assert.ok(paths.includes('docs/element.md') && paths.includes('docs/server.md'), 'the docs the README links are packed');
  // The README's pictures travel with it (linked by their CDN address: the registry's page resolves no
  // relative link); other pictures stay in the repository.
  const pictures = [...readFileSync(join(ROOT, 'README.md'), 'utf8').matchAll(/\/wallet-pay-button@[^/\s]+\/(docs\/images\/[\w-]+\.png)/g)].map((match) => match[1]!);
  assert.ok(pictures.length > 0);
  assert.deepEqual(pictures.filter((picture) => !paths.includes(picture)), [], "the README's pictures are packed");
  assert.deepEqual(
    paths.filter((path) => /(^|\/)(test|demo|src|bench)\//.test(path) || /\.test\.|playground/.test(path)),
    [],
    'no tests, sources, demo or benchmarks',
  );
  for (const target of exportTargets()) {
    assert.ok(paths.includes(target), `${target} is packed`);
    assert.ok(existsSync(join(ROOT, target)), `${target} exists after the build`);
  }
  // Every declaration a public module needs travels with it.
  for (const entry of ['index', 'define', 'react', 'protocol/index', 'element/wallet-pay-button', 'element/events', 'server/index', 'server/node', 'server/postgres', 'server/mysql', 'server/redis', 'server/store-suite', 'server/providers', 'server/provider-suite', 'sandbox/index', 'check/index', 'testing/index']) {
    assert.ok(paths.includes(`dist/types/${entry}.d.ts`), `dist/types/${entry}.d.ts is packed`);
  }
});

test('the built root imports in Node without a DOM; the protocol, the server kit and the sandbox import too', async () => {
  // A child process without the `source` condition: exactly what a merchant's Node gets from dist/.
  const script = `
    const root = await import('wallet-pay-button');
    const protocol = await import('wallet-pay-button/protocol');
    const server = await import('wallet-pay-button/server');
    const node = await import('wallet-pay-button/server/node');
    const postgres = await import('wallet-pay-button/server/postgres');
    const mysql = await import('wallet-pay-button/server/mysql');
    const redis = await import('wallet-pay-button/server/redis');
    const providers = await import('wallet-pay-button/server/providers');
    const providerSuite = await import('wallet-pay-button/server/provider-suite');
    const storeSuite = await import('wallet-pay-button/server/store-suite');
    const sandbox = await import('wallet-pay-button/sandbox');
    const check = await import('wallet-pay-button/check');
    const testing = await import('wallet-pay-button/testing');
    console.log(JSON.stringify({
      document: typeof globalThis.document,
      rootUrl: import.meta.resolve('wallet-pay-button'),
      element: typeof root.WalletPayButton,
      words: root.STRINGS_EN['button.pay'],
      protocolUrl: import.meta.resolve('wallet-pay-button/protocol'),
      code: protocol.CODES.INVALID_REQUEST,
      codeOnRoot: 'CODES' in root,
      defined: globalThis.customElements?.get?.('wallet-pay-button') !== undefined,
      handler: typeof server.createPaymentHandler,
      listener: typeof node.toNodeListener,
      postgres: typeof postgres.createPostgresStore,
      mysql: typeof mysql.createMysqlStore,
      redis: typeof redis.createRedisStore,
      epay: typeof providers.esewaEpay,
      providerSuite: typeof providerSuite.runProviderSuite,
      storeSuite: typeof storeSuite.storeSuite,
      sandbox: typeof sandbox.startSandbox,
      check: typeof check.runCheck,
      testing: typeof testing.walletPayFixtures,
      serverInternals: ['createServiceClient', 'verifyCallback', 'createSignature', 'SIGNED_FIELDS'].filter((name) => name in server),
    }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, timeout: 120_000 });
  const result = JSON.parse(stdout.trim()) as Record<string, unknown>;
  assert.deepEqual(result, {
    document: 'undefined',
    rootUrl: new URL('dist/index.js', `file://${ROOT}/`).href,
    element: 'function',
    words: 'Pay with wallet',
    protocolUrl: new URL('dist/protocol/index.js', `file://${ROOT}/`).href,
    code: 'IP-422',
    codeOnRoot: false,
    defined: false,
    handler: 'function',
    listener: 'function',
    postgres: 'function',
    mysql: 'function',
    redis: 'function',
    epay: 'function',
    providerSuite: 'function',
    storeSuite: 'function',
    sandbox: 'function',
    check: 'function',
    testing: 'object',
    serverInternals: [],
  });
});

test('a TypeScript consumer type-checks against dist/types, and loose types would fail it', async () => {
  // Inside the package (a self-reference resolves `wallet-pay-button`), in a dot-folder the
  // repository's own tsconfig and lint never pick up.
  const dir = await mkdtemp(join(ROOT, 'test/package/.consumer-'));
  try {
    await copyFile(join(ROOT, 'test/package/fixtures/consumer.ts.txt'), join(dir, 'consumer.ts'));
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: ['node'],
          typeRoots: [join(ROOT, 'node_modules/@types')],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          verbatimModuleSyntax: true,
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
    // A type error makes tsc exit non-zero, which rejects here.
    const { stdout: files } = await run(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json'), '--explainFiles'], {
      cwd: ROOT,
      maxBuffer: 16 * 1024 * 1024,
      timeout: 120_000,
    });
    assert.match(files, /^dist\/types\/index\.d\.ts$/m, 'the consumer reads the built declarations');
    assert.match(files, /^dist\/types\/react\.d\.ts$/m);
    assert.match(files, /^dist\/types\/protocol\/index\.d\.ts$/m);
    assert.doesNotMatch(files, /^src\//m, 'and never the sources');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a bundler keeps ./define and drops the registration from a root-only import', async () => {
  const { build } = await import('vite');
  const dir = await mkdtemp(join(ROOT, 'test/package/.bundle-'));
  try {
    await writeFile(join(dir, 'define-only.js'), "import 'wallet-pay-button/define';\n");
    await writeFile(join(dir, 'root-only.js'), "import { STRINGS_EN } from 'wallet-pay-button';\nconsole.log(STRINGS_EN);\n");
    const output = await build({
      configFile: false,
      root: dir,
      logLevel: 'silent',
      build: {
        write: false,
        minify: false,
        rolldownOptions: { input: { define: join(dir, 'define-only.js'), root: join(dir, 'root-only.js') }, preserveEntrySignatures: 'strict' },
      },
    });
    const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) => ('output' in result ? result.output : []));
    const code = (name: string) =>
      chunks
        .filter((chunk) => chunk.type === 'chunk' && chunk.name === name)
        .map((chunk) => (chunk.type === 'chunk' ? chunk.code : ''))
        .join('\n');
    assert.match(code('define'), /customElements\.define\(\s*["'`]wallet-pay-button["'`]/, 'the define import registers the tag');
    assert.doesNotMatch(code('root'), /customElements\.define/, 'the root import registers nothing');
    assert.doesNotMatch(code('root'), /class \w+ extends \w*LitElement|LitElement/, 'and carries no element');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** Reactive fields of the element that are not public API (marked `@internal`). */
const INTERNAL = ['langAttr', 'clock'];

interface ManifestDeclaration {
  tagName?: string;
  customElement?: boolean;
  attributes?: { name: string }[];
  members?: { name: string; kind: string; privacy?: string }[];
  events?: { name: string }[];
  cssParts?: { name: string }[];
  cssProperties?: { name: string }[];
  slots?: { name: string }[];
}

/**
 * What the element declares: the JSDoc tags of its class (read from the source) and the reactive
 * properties and observed attributes Lit computes from the class itself (decorators or
 * `static properties`, whichever the source uses).
 */
async function declaredByElement() {
  const source = readFileSync(join(ROOT, 'src/element/wallet-pay-button.ts'), 'utf8');
  const tag = (name: string) => [...source.matchAll(new RegExp(`@${name}\\s+([\\w-]*)`, 'g'))].map((match) => match[1] ?? '');
  // `@slot - text` is the default slot, named '' in the manifest.
  const slots = tag('slot').map((name) => (name === '-' ? '' : name));
  const { WalletPayButton } = await import('../../src/element/wallet-pay-button.js');
  const attributes = (WalletPayButton as unknown as { observedAttributes: string[] }).observedAttributes;
  const properties = [...WalletPayButton.elementProperties.keys()].map(String);
  return { events: tag('fires'), parts: tag('csspart'), cssProps: tag('cssprop'), slots, attributes, properties };
}

test('custom-elements.json lists what the element declares: attributes, properties, events, slots, parts, custom properties', async () => {
  const manifest = JSON.parse(readFileSync(join(DIST, 'custom-elements.json'), 'utf8')) as {
    modules: { declarations?: ManifestDeclaration[] }[];
  };
  const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((item) => item.tagName === 'wallet-pay-button');
  assert.ok(element?.customElement, 'the manifest declares <wallet-pay-button>');
  const names = (list: { name: string }[] | undefined) => (list ?? []).map((item) => item.name);
  const declared = await declaredByElement();
  // The source itself must declare something, or the comparisons below would pass on nothing.
  assert.ok(declared.events.includes('wallet-pay-navigate') && declared.attributes.includes('endpoint'));
  for (const [kind, expected, actual] of [
    ['event', declared.events, names(element.events)],
    ['part', declared.parts, names(element.cssParts)],
    ['custom property', declared.cssProps, names(element.cssProperties)],
    ['slot', declared.slots, names(element.slots)],
    // Internal reactive fields (`langAttr` observes `lang`; the test clock) are not public API.
    ['attribute', declared.attributes.filter((name) => name !== 'lang'), names(element.attributes)],
    ['property', declared.properties.filter((name) => !INTERNAL.includes(name)), names(element.members?.filter((member) => member.kind === 'field'))],
  ] as const) {
    const missing = expected.filter((name) => !actual.includes(name));
    assert.deepEqual(missing, [], `every ${kind} of the source is in the manifest`);
  }
  // Only public members: nothing private, internal, or the old pulled-config method.
  const members = element.members ?? [];
  assert.deepEqual(
    members.filter((member) => member.privacy === 'private' || member.name.startsWith('#') || [...INTERNAL, 'flowConfig'].includes(member.name)).map((member) => member.name),
    [],
  );
  assert.equal(names(element.attributes).includes('lang'), false);
  assert.ok(names(element.attributes).includes('endpoint'));
  assert.ok(names(element.events).includes('wallet-pay-navigate'));
});

test('every file of the package the README and the docs name is in the packed package', async () => {
  const paths = await packedPaths();
  const docs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const missing: string[] = [];
  let named = 0;
  for (const doc of docs) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const match of text.matchAll(/(?<![\w./-])((?:node_modules\/wallet-pay-button\/)?dist\/(?:[\w.*…-]|\[\w+\]|\/)*(?:[\w*…/]|\[\w+\]))/g)) {
      const path = match[1]!.replace(/^node_modules\/wallet-pay-button\//, '');
      named++;
      // `[hash]`, `*` and `…` stand for a chunk's hash; a folder matches the files in it.
      const pattern = new RegExp(`^${path.split(/\[\w+\]|\*|…/).map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[\\w-]+')}${path.endsWith('/') ? '' : '(?:$|/)'}`);
      if (!paths.some((file) => pattern.test(file))) missing.push(`${doc}: ${match[1]}`);
    }
  }
  assert.ok(named > 10, `the docs name files of the package (${named})`);
  assert.deepEqual(missing, [], 'every file the docs name is shipped');
});

test("custom-elements.json's package root exports what the built root gives a script, each from the module that declares it", async () => {
  const manifest = JSON.parse(readFileSync(join(DIST, 'custom-elements.json'), 'utf8')) as {
    modules: { path: string; exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[] }[];
  };
  const root = manifest.modules.find((module) => module.path === 'src/index.ts');
  assert.ok(root, 'the manifest describes the package root');
  // Without the `source` condition this is dist/index.js, what a merchant's bundler reads. The name is
  // a variable so the type check of a fresh clone, before any build, does not look for dist/'s types.
  const packageName: string = 'wallet-pay-button';
  const built = Object.keys((await import(packageName)) as Record<string, unknown>).sort();
  assert.ok(built.includes('WalletPayButton'));
  assert.deepEqual((root.exports ?? []).map((entry) => entry.name).sort(), built, 'type-only exports are not listed; every value is');
  for (const module of manifest.modules) {
    for (const entry of module.exports ?? []) {
      const declared = entry.declaration.module;
      assert.ok(declared && /^src\/.+\.ts$/.test(declared) && existsSync(join(ROOT, declared)), `${module.path}: ${entry.name} points at a source module (${declared})`);
    }
  }
});
