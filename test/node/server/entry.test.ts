import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';

const SERVER_DIR = new URL('../../../src/server/', import.meta.url);

test('wallet-pay-button/server exports the public API, signatures included, and no Node adapter', async () => {
  const server = await import('../../../src/server/index.js'); // the source of the `./server` entry
  for (const name of [
    'createSignature',
    'verifySignature',
    'verifyMessage',
    'signatureMessage',
    'SIGNED_FIELDS',
    'SignatureInputError',
    'verifyCallback',
    'CallbackVerificationError',
    'readRawJsonObject',
    'createServiceClient',
    'ServiceError',
    'createPaymentHandler',
    'createMemoryStore',
    'transactionUuid',
    'WEB_PAYMENT_SIGNED_FIELDS',
  ]) {
    assert.ok(name in server, `wallet-pay-button/server lacks ${name}`);
  }
  assert.equal('toNodeListener' in server, false);
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
