/**
 * The benchmark builds in its own process and then runs the payment handler on the memory store:
 * the build must not leave NODE_ENV=production behind (Vite sets it when it is unset), or the
 * handler's production warning prints during `npm run bench`. The warning itself stays as it is.
 * Its own file: the warning is once per process, and node --test runs each file in its own process.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildMinimalCdn } from './build.js';
import { startMerchant } from './merchant.js';
import { viteBuild } from '../scripts/vite-build.mjs';
import { restoreEnvAfter } from '../test/support/env.js';

const tinyBuild = () =>
  viteBuild({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, rolldownOptions: { input: new URL('../src/protocol/values.ts', import.meta.url).pathname } },
  });

test("the benchmark's builds leave NODE_ENV as they found it; the memory-store warning stays for a real production process", async (t) => {
  const warnings: string[] = [];
  t.mock.method(console, 'warn', (...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
  restoreEnvAfter(t, 'NODE_ENV');

  delete process.env.NODE_ENV;
  const page = await buildMinimalCdn();
  page.dispose();
  await Promise.all([tinyBuild(), tinyBuild()]);
  assert.equal(process.env.NODE_ENV, undefined, 'unset again after the builds, overlapping ones included');
  const quiet = await startMerchant('http://127.0.0.1:9');
  await quiet.close();
  assert.deepEqual(warnings, [], 'no production warning in the benchmark process');

  process.env.NODE_ENV = 'production';
  await tinyBuild();
  assert.equal(process.env.NODE_ENV, 'production', 'a value the process had is kept');
  const warned = await startMerchant('http://127.0.0.1:9');
  await warned.close();
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /in-memory store under NODE_ENV=production/);
});
