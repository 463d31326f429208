import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';

const SERVER_DIR = new URL('../../../src/server/', import.meta.url);

/** The backticked names of a doc's section (from its heading to `until`, or to the next heading). */
async function namesIn(doc: string, heading: string, until?: string): Promise<string[]> {
  const text = await readFile(new URL(`../../../docs/${doc}`, import.meta.url), 'utf8');
  const start = text.indexOf(`## ${heading}`);
  assert.ok(start >= 0, `docs/${doc} has a "${heading}" section`);
  const next = text.indexOf('\n## ', start + 3);
  let section = text.slice(start, next < 0 ? undefined : next);
  if (until) section = section.slice(0, section.indexOf(until));
  return [...new Set([...section.matchAll(/`([A-Za-z_][A-Za-z0-9_]*)`/g)].map((m) => m[1]!))].sort();
}

test('wallet-pay-button/server exports exactly the values docs/server.md lists, and no Node adapter', async () => {
  const server = await import('../../../src/server/index.js') // the source of the `./server` entry;
  const values = await namesIn('server.md', 'What this entry exports', 'And these types');
  assert.ok(values.includes('createPaymentHandler') && values.includes('StoreUnavailableError'));
  assert.deepEqual(Object.keys(server).sort(), values);
  // Low-level helpers stay inside the package.
  for (const name of ['signMessage', 'formatSignedValue', 'parseSignedFieldNames', 'readRawJsonObject', 'WEB_PAYMENT_SIGNED_FIELDS', 'transactionUuid', 'toNodeListener']) {
    assert.equal(name in server, false, `${name} is not part of wallet-pay-button/server`);
  }
});

test('wallet-pay-button/sandbox exports exactly the values docs/sandbox.md lists', async () => {
  const sandbox = await import('../../../src/sandbox/index.js') // the source of the `./sandbox` entry;
  const values = await namesIn('sandbox.md', 'What this entry exports', 'And these types');
  assert.deepEqual(Object.keys(sandbox).sort(), values);
  for (const name of ['formatTimestamp', 'MAX_BODY_BYTES', 'WEB_PAYMENT_SIGNED_FIELDS']) assert.equal(name in sandbox, false, name);
  assert.equal(typeof sandbox.startSandbox, 'function');
});

test('the core server modules import nothing but each other and the contract (edge runtimes)', async () => {
  const files = (await readdir(SERVER_DIR)).filter((name) => name.endsWith('.ts') && name !== 'node.ts');
  assert.ok(files.includes('handler.ts') && files.includes('index.ts'));
  for (const file of files) {
    const source = await readFile(new URL(file, SERVER_DIR), 'utf8');
    const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map((m) => m[1]);
    for (const specifier of specifiers) {
      assert.match(specifier!, /^\.\.?\/[\w./-]+\.js$/, `${file} imports ${specifier}`);
      assert.notEqual(specifier, './node.js', `${file} pulls in the Node adapter`);
    }
    assert.doesNotMatch(source, /\b(?:Buffer|process|require)\s*[.(]/, `${file} uses a Node-only global`);
  }
});

test('wallet-pay-button/server/postgres exports the PostgreSQL store and imports no database driver', async () => {
  const entry = await import('../../../src/server/postgres.js'); // the source of `./server/postgres`
  for (const name of ['createPostgresStore', 'postgresSchema', 'SCHEMA_VERSION']) assert.ok(name in entry, `lacks ${name}`);
  const source = await readFile(new URL('postgres.ts', SERVER_DIR), 'utf8');
  assert.doesNotMatch(source, /from\s+'(?:pg|@electric-sql\/pglite)'/);
  const manifest = JSON.parse(await readFile(new URL('../../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, unknown>>;
  for (const driver of ['pg', '@electric-sql/pglite']) {
    assert.equal(manifest.dependencies?.[driver], undefined, `${driver} must not be a dependency`);
    assert.deepEqual(manifest.peerDependenciesMeta?.[driver], { optional: true });
  }
});
