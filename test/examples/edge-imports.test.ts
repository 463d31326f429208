/**
 * Edge-safe imports: the published `wallet-pay-button/server` (and `/server/postgres`) bundle for a
 * browser-like platform without a single Node built-in, as Workers, Deno Deploy and other edge
 * runtimes need. The sandbox is documented as Node-only (docs/runtimes.md): its bundle must show the
 * Node modules it needs, so the day it stops needing them the docs are changed too.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { createWorkspace, ROOT, type Workspace } from './workspace.js';

const NODE_BUILTINS = new Set(builtinModules);
let workspace: Workspace;

before(() => {
  workspace = createWorkspace();
});
after(() => workspace?.dispose());

/** Bundles `specifier` as a browser-platform merchant bundle; returns the Node built-ins it reached. */
async function nodeModulesReached(specifier: string): Promise<string[]> {
  const entry = join(workspace.dir, `entry-${specifier.replaceAll('/', '-')}.js`);
  writeFileSync(entry, `export * from ${JSON.stringify(specifier)};\n`);
  const reached = new Set<string>();
  const bundle = await rolldown({
    input: entry,
    platform: 'browser',
    logLevel: 'silent',
    plugins: [
      {
        name: 'record-node-builtins',
        resolveId(id) {
          if (id.startsWith('node:') || NODE_BUILTINS.has(id)) {
            reached.add(id);
            return { id, external: true };
          }
          return null;
        },
      },
    ],
  });
  try {
    await bundle.generate({ format: 'esm' });
  } finally {
    await bundle.close();
  }
  return [...reached].sort();
}

test('wallet-pay-button/server bundles for the browser platform with no Node built-in', async () => {
  assert.deepEqual(await nodeModulesReached('wallet-pay-button/server'), []);
});

test('wallet-pay-button/server/postgres bundles for the browser platform with no Node built-in', async () => {
  assert.deepEqual(await nodeModulesReached('wallet-pay-button/server/postgres'), []);
});

test('the Node adapter and the sandbox are Node-only, as docs/runtimes.md says', async () => {
  assert.ok((await nodeModulesReached('wallet-pay-button/server/node')).length > 0, 'server/node uses Node modules');
  const sandbox = await nodeModulesReached('wallet-pay-button/sandbox');
  assert.ok(sandbox.includes('node:http'), `the sandbox serves with node:http; reached ${sandbox.join(', ')}`);
  const docs = readFileSync(join(ROOT, 'docs', 'runtimes.md'), 'utf8');
  assert.match(docs, /`wallet-pay-button\/sandbox` is Node-only/);
  assert.match(docs, /`wallet-pay-button\/server\/node` is Node-only/);
});
