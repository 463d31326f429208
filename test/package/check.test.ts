/**
 * The checker as npm publishes it: `wallet-pay-check` runs from the bin launcher on the build, proves
 * a proxy and ends with the plain summary; `wallet-pay-button/check`, `/contract.json` and
 * `/signature-vectors.json` resolve through the package's exports. Runs after `npm run build`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './support.js';
import { createMemoryStore } from '../../src/server/index.js';
import { AMOUNT, freePort, PREFIX, startKitProxy } from '../node/check/support.js';

const run = promisify(execFile);

test('the built exports resolve: the checker, the OpenAPI document and the signature vectors', async () => {
  const script = `
    const check = await import('wallet-pay-button/check');
    const contract = (await import('wallet-pay-button/contract.json', { with: { type: 'json' } })).default;
    const vectors = (await import('wallet-pay-button/signature-vectors.json', { with: { type: 'json' } })).default;
    console.log(JSON.stringify({ run: typeof check.runCheck, clauses: check.CLAUSES.length, openapi: contract.openapi, vectors: vectors.vectors.length > 0,
      url: import.meta.resolve('wallet-pay-button/check') }));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT });
  const result = JSON.parse(stdout.trim()) as Record<string, unknown>;
  assert.equal(result.run, 'function');
  assert.ok((result.clauses as number) >= 20);
  assert.equal(result.openapi, '3.1.0');
  assert.equal(result.vectors, true);
  assert.equal(result.url, new URL('dist/check/index.js', `file://${ROOT}/`).href);
});

test('bin/wallet-pay-check.mjs proves the kit from the build and ends with "N passed, 0 failed"', async () => {
  const port = await freePort();
  const proxy = await startKitProxy(port, { store: createMemoryStore() });
  try {
    const { stdout } = await run(
      process.execPath,
      [join(ROOT, 'bin/wallet-pay-check.mjs'), '--endpoint', proxy.endpoint, '--sandbox-port', String(port), '--order-prefix', PREFIX, '--amount', String(AMOUNT), '--reconcile-command', proxy.reconcileCommand],
      { cwd: ROOT, timeout: 180_000 },
    );
    assert.match(stdout.trim().split('\n').at(-1)!, /^\d+ passed, 0 failed$/);
  } finally {
    await proxy.close();
  }
});
