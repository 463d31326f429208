/**
 * docs/testing-your-shop.md runs as written. Each code block of the guide is a verbatim part of the
 * example file it names, so the two cannot drift; the example files run (the Playwright spec through
 * its own fixtures, in Chromium; the shop as a process of its own); each shell block runs in bash,
 * with only the commands and ports swapped for the ones this checkout builds.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright';
import { loadJourney, runJourney } from '../../src/sandbox/esewa-intent/journey.js';
import { launchChromium } from '../../scripts/chromium.mjs';
import { freePort } from './check/support.js';
import { bundled } from '../support/bundled.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = 'docs/testing-your-shop.md';
const guide = readFileSync(join(ROOT, GUIDE), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'wpb-docs-testing-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The guide's code blocks, each with the marker before it: `<!-- example: FILE -->` or `<!-- run: NAME -->`. */
const blocks = [...guide.matchAll(/<!-- (example|run): (\S+) -->\n```(\w+)\n([\s\S]*?)```/g)].map(([, kind, name, lang, code]) => ({ kind: kind!, name: name!, lang: lang!, code: code! }));
const shell = (name: string): string => {
  const block = blocks.find((b) => b.kind === 'run' && b.name === name);
  assert.ok(block, `${GUIDE} has a block marked <!-- run: ${name} -->`);
  return block.code;
};

describe(`${GUIDE}: its blocks are the examples`, () => {
  test('every code block is marked with the example it shows or the run that runs it', () => {
    const fences = guide.match(/^```/gm)?.length ?? 0;
    assert.equal(blocks.length * 2, fences, 'each fenced block follows a marker');
    assert.ok(blocks.length >= 6, `the guide shows its examples (${blocks.length})`);
  });
  for (const block of blocks.filter((b) => b.kind === 'example')) {
    test(`a ${block.lang} block is a verbatim part of ${block.name}`, () => {
      const file = readFileSync(join(ROOT, block.name), 'utf8');
      assert.ok(file.includes(block.code), `${GUIDE} shows this, which ${block.name} does not hold:\n${block.code}`);
    });
  }
});

/** `@playwright/test` as far as the example uses it: `test.extend` records the tests; `expect` asserts. */
const PLAYWRIGHT_SHIM = `
import assert from 'node:assert/strict';
const tests = (globalThis[Symbol.for('docs-testing.tests')] ??= []);
export const test = { extend: (fixtures) => (name, body) => tests.push({ name, fixtures, body }) };
export const expect = (actual) => ({
  toBe: (expected) => assert.equal(actual, expected),
  toEqual: (expected) => assert.deepEqual(actual, expected),
  toContain: (part) => assert.ok(actual.includes(part), \`expected \${JSON.stringify(actual)} to contain \${JSON.stringify(part)}\`),
});`;

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { default: string } | string> };

/** The package's own entries from source, through its exports map (`./dist/x.js` is built from `src/x.ts`). */
const fromSource: Plugin = {
  name: 'wallet-pay-button-from-source',
  setup(context) {
    context.onResolve({ filter: /^@playwright\/test$/ }, () => ({ path: 'playwright-test', namespace: 'shim' }));
    context.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({ contents: PLAYWRIGHT_SHIM, loader: 'js', resolveDir: ROOT }));
    context.onResolve({ filter: /^wallet-pay-button\// }, ({ path }) => {
      const entry = manifest.exports[`./${path.slice('wallet-pay-button/'.length)}`];
      assert.ok(entry && typeof entry === 'object', `the package exports ${path}`);
      return { path: join(ROOT, entry.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts')) };
    });
  },
};

/** An example file bundled as a user's project would load it, the package's imports from its source. */
async function bundleExample(file: string): Promise<string> {
  // Inside the repository, so Playwright and the kit's dependencies resolve from its node_modules.
  const out = join(ROOT, 'node_modules', '.cache', 'wallet-pay-button-tests');
  mkdirSync(out, { recursive: true });
  const outfile = join(out, `docs-testing-${file.replace(/\W+/g, '_')}.${process.pid}.mjs`);
  await build({ entryPoints: [join(ROOT, file)], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', plugins: [fromSource], logLevel: 'silent' });
  process.once('exit', () => rmSync(outfile, { force: true }));
  return outfile;
}

type Fixtures = Record<string, unknown>;
type Registered = { name: string; fixtures: Fixtures; body: (args: Fixtures) => Promise<void> };

/** Playwright's fixture order: each fixture set up around the rest, in declaration order, torn down after. */
async function withFixtures(definitions: [string, unknown][], given: Fixtures, body: (args: Fixtures) => Promise<void>): Promise<void> {
  const [first, ...rest] = definitions;
  if (!first) return body(given);
  const [name, definition] = first;
  if (Array.isArray(definition)) return withFixtures(rest, { ...given, [name]: definition[0] }, body);
  let used = false;
  await (definition as (args: Fixtures, use: (value: unknown) => Promise<void>) => Promise<void>)(given, async (value) => {
    used = true;
    await withFixtures(rest, { ...given, [name]: value }, body);
  });
  assert.ok(used, `the fixture ${name} called use()`);
}

describe('examples/testing/checkout.spec.ts: the Playwright fixtures pay and expect the callback', () => {
  let browser: Browser;
  const registered: Registered[] = [];
  before(async () => {
    browser = await launchChromium();
    const tests = ((globalThis as Record<symbol, Registered[]>)[Symbol.for('docs-testing.tests')] ??= []);
    await import(pathToFileURL(await bundleExample('examples/testing/checkout.spec.ts')).href);
    registered.push(...tests.splice(0));
  });
  after(() => browser?.close());

  test('the spec declares its two tests', () => {
    assert.deepEqual(
      registered.map((t) => t.name),
      ['paid on the wallet page: the shop hears of it', 'the callback is lost: none within 2 s'],
    );
  });
  for (const name of ['paid on the wallet page: the shop hears of it', 'the callback is lost: none within 2 s']) {
    test(`the spec's "${name}" passes`, { timeout: 60_000 }, async () => {
      const spec = registered.find((t) => t.name === name);
      assert.ok(spec, `the spec declares "${name}"`);
      const page = await browser.newPage();
      try {
        await withFixtures(Object.entries(spec.fixtures), { page }, spec.body);
      } finally {
        await page.close();
      }
    });
  }
});

/** Runs a shell block in bash in a process group of its own; resolves when bash exits, within 90 s. */
function runShell(script: string, started: ChildProcess[]): Promise<{ code: number | null; out: string; err: string }> {
  const env = { ...process.env };
  delete env['SHOP_SESSION']; // the block sets what it needs
  const child = spawn('bash', ['-c', script], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  started.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`the shell block did not finish within 90 s; it printed:\n${out}\n${err}`));
    }, 90_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

describe("the sandbox's command line and the shop as processes: CI's journey, the clock, the session", () => {
  const started: ChildProcess[] = [];
  /** What the guide writes, and what this checkout runs instead (bare port numbers as whole words). */
  const swaps: [string | RegExp, string][] = [];
  const ports = { sandbox: 0, links: 0, shop: 0 };
  after(() => {
    // The block's background jobs (the sandbox and the shop) share its process group.
    for (const child of started) {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // Already gone.
      }
    }
  });
  before(async () => {
    Object.assign(ports, { sandbox: await freePort(), links: await freePort(), shop: await freePort() });
    swaps.push(
      ['npx wallet-pay-sandbox', `node --enable-source-maps ${await bundled(new URL('../../src/sandbox/cli.ts', import.meta.url))}`],
      ['npx tsx examples/testing/server.ts', `node ${await bundleExample('examples/testing/server.ts')}`],
      ['--junit journey.xml', `--junit ${join(dir, 'journey.xml')}`],
      [/\b4010\b/g, String(ports.sandbox)],
      [/\b4011\b/g, String(ports.links)],
      [/\b8080\b/g, String(ports.shop)],
    );
  });
  /** The block with this checkout's commands and free ports. */
  const runnable = (code: string): string => swaps.reduce((script, [from, to]) => script.replaceAll(from, to), code);
  const found = (code: string, from: string | RegExp) => (typeof from === 'string' ? code.includes(from) : new RegExp(from.source).test(code));

  test('the CI block starts both, runs the signed-in journey and writes its JUnit report', { timeout: 100_000 }, async () => {
    const block = shell('ci');
    for (const [from] of swaps) assert.ok(found(block, from), `the CI block has ${String(from)}`);
    const { code, out, err } = await runShell(runnable(block), started);
    assert.equal(code, 0, out + err);
    assert.match(out, /a signed-in shopper pays; the callback is lost: passed \(3 of 3 steps\)/);
    const junit = readFileSync(join(dir, 'journey.xml'), 'utf8');
    assert.match(junit, /<testsuite name="a signed-in shopper pays; the callback is lost" tests="3" failures="0"/);
    assert.match(junit, /<testcase [^>]*name="3 no callback"/);
  });

  test('without the session the same journey fails at the book: the shop refuses IP-424', { timeout: 30_000 }, async () => {
    const journey = await loadJourney(join(ROOT, 'examples/testing/signed-in.json'));
    const target = { endpoint: `http://127.0.0.1:${ports.shop}/api/pay`, sandboxUrl: `http://127.0.0.1:${ports.sandbox}`, waitMs: 5_000 };
    const stranger = await runJourney(journey, { ...target, env: { SHOP_SESSION: 'someone-else' } });
    assert.equal(stranger.ok, false);
    assert.match(stranger.steps[0]!.error ?? '', /^book answered 4\d\d: .*IP-424/);
    const noHeaders = await runJourney({ ...journey, headers: undefined }, { ...target, env: {} });
    assert.match(noHeaders.steps[0]!.error ?? '', /IP-424/);
  });

  test('the clock block: reconcile leaves the booking until the sandbox clock moves 6 minutes, then settles it', { timeout: 60_000 }, async () => {
    const { code, out, err } = await runShell(runnable(shell('clock')), started);
    assert.equal(code, 0, out + err);
    const answers = out.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as { checked: number; settled: number; results: unknown[] });
    assert.equal(answers.length, 2, out);
    assert.equal(answers[0]!.checked, 0, 'younger than five minutes on the shop’s clock');
    assert.deepEqual(answers[0]!.results, []);
    assert.equal(answers[1]!.settled, 1, out);
    assert.deepEqual(answers[1]!.results, [{ status: 'SUCCESS', source: 'reconcile' }]);
  });
});
