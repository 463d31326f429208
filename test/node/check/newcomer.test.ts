/**
 * A third proxy, written the way a newcomer would from docs/backends.md alone (fixtures/newcomer/shop.py,
 * Python's standard library and SQLite), passes every clause with its reconcile command: the docs say
 * enough to write a proxy the checker accepts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBackends } from '../../../scripts/backends.mjs';
import { AMOUNT, checkProxy, freePort, PREFIX, type ProxyUnderTest } from './support.js';
import { clausesFor } from '../../../src/check/clauses.js';

const INTENT_CLAUSES = clausesFor();

const FOLDER = fileURLToPath(new URL('./fixtures/newcomer/', import.meta.url));
let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'wpb-newcomer-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function startNewcomer(sandboxPort: number): Promise<ProxyUnderTest> {
  const { python } = ensureBackends({ log: () => {} }) as { python: string };
  const port = await freePort();
  const env = {
    SERVICE_URL: `http://127.0.0.1:${sandboxPort}`,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DB_PATH: join(dir, `shop-${port}.sqlite`),
    SELL_PREFIX: PREFIX,
    SELL_PRICE: String(AMOUNT),
    PYTHONDONTWRITEBYTECODE: '1',
  };
  const child = spawn(python, ['shop.py'], { cwd: FOLDER, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/pay/book`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`the newcomer's proxy did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const assignments = Object.entries({ ...env, RECONCILE_AFTER: '0' }).map(([name, value]) => `${name}='${value}'`).join(' ');
  return {
    endpoint: `http://127.0.0.1:${port}/pay`,
    reconcile: `cd '${FOLDER}' && env ${assignments} '${python}' shop.py reconcile`,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

test('a proxy written from docs/backends.md alone passes every clause', async () => {
  const { report, ms, output } = await checkProxy(startNewcomer);
  assert.deepEqual(report.clauses.filter((c) => !c.ok).map((c) => `${c.id}: ${c.detail}`), [], output);
  assert.equal(report.passed, INTENT_CLAUSES.length);
  console.log(`checker against the newcomer's proxy: ${ms} ms`);
});
