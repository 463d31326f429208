/**
 * The CDN build config (vite.config.ts `cdnBuild`) on a fixture split the way issue 14 splits the
 * element (test/fixtures/split-build): the ESM entry with its chunks beside it, imported relative to
 * the entry's URL and named by the module they hold; the classic IIFE file self-contained; the Lit
 * templates and CSS minified; integrity.json naming every file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { CDN_ENTRY_FILE, CDN_IIFE_FILE, cdnBuild, cdnChunkFileName } from '../../../vite.config.js';
import { INTEGRITY_FILE, integrityOf } from '../../../scripts/cdn-integrity.mjs';
import { NE_CHUNK_NAME, PAYER_EN_NAME, cdnLoads, cdnPieces, measureFiles } from '../../../scripts/size.mjs';

const ROOT = join(import.meta.dirname, '../../..');
let out = '';
const read = (name: string) => readFileSync(join(out, name), 'utf8');

before(async () => {
  out = mkdtempSync(join(tmpdir(), 'wallet-pay-cdn-fixture-'));
  await build({ configFile: false, root: ROOT, logLevel: 'silent', ...cdnBuild({ entry: 'test/fixtures/split-build/define.ts', outDir: out }) });
});

after(() => rmSync(out, { recursive: true, force: true }));

test('chunks are named by the module they hold', () => {
  assert.equal(cdnChunkFileName({ facadeModuleId: '/repo/src/element/payment.ts' }), 'payment-[hash].min.js');
  assert.equal(cdnChunkFileName({ facadeModuleId: '/repo/src/element/i18n/ne/texts.ts' }), 'ne-[hash].min.js');
  assert.equal(cdnChunkFileName({ facadeModuleId: '/repo/src/element/handoff/index.ts' }), 'handoff-[hash].min.js');
  assert.equal(cdnChunkFileName({ facadeModuleId: '/repo/src/element/payments.ts' }), 'chunk-[hash].min.js');
  assert.equal(cdnChunkFileName({ facadeModuleId: null }), 'chunk-[hash].min.js');
});

test('the ESM entry imports its payment and Nepali chunks relative to its own URL; they sit beside it', () => {
  const files = readdirSync(out).sort();
  const payment = files.find((name) => /^payment-[\w-]+\.min\.js$/.test(name));
  const ne = files.find((name) => /^ne-[\w-]+\.min\.js$/.test(name));
  assert.ok(payment && ne, `payment and Nepali chunks in ${files.join(', ')}`);
  assert.deepEqual(files, [CDN_IIFE_FILE, CDN_ENTRY_FILE, INTEGRITY_FILE, ne, payment].sort());
  const entry = read(CDN_ENTRY_FILE);
  const dynamic = [...entry.matchAll(/\bimport\(\s*(["'`])([^"'`]+)\1\s*\)/g)].map((match) => match[2]).sort();
  assert.deepEqual(dynamic, [`./${ne}`, `./${payment}`]);
  // No static import: the entry is one request until the shopper needs more.
  assert.doesNotMatch(entry, /\bimport\s*(\{[^}]*\}\s*from\s*)?["'][^"']+["']/);
  assert.match(read(ne), /\\u092d/i, 'the Nepali chunk is plain ASCII too');
});

test('the classic IIFE file is one self-contained file: its dynamic imports are inlined', () => {
  const iife = read(CDN_IIFE_FILE);
  assert.doesNotMatch(iife, /\bimport\s*\(|\bimport\s*["'{]/);
  assert.match(iife, /paid after/, 'the payment module is inside');
  assert.match(iife, /\\u092d/i, 'the Nepali texts are inside');
  assert.match(iife, /^\/\*! wallet-pay-button /);
});

test('templates and CSS are minified: no line break or indentation run is left inside them', () => {
  for (const name of [CDN_ENTRY_FILE, CDN_IIFE_FILE]) {
    const code = read(name);
    const button = /`(<button part="button"[^`]*)`/.exec(code)?.[1];
    const styles = /`(:host\{[^`]*)`/.exec(code)?.[1];
    assert.ok(button && styles, `${name} holds the fixture's template and styles`);
    for (const text of [button, styles]) assert.doesNotMatch(text, /\n|\s{2,}/, `${name}: ${JSON.stringify(text)}`);
    assert.match(button, /^<button part="button" type="button" @click=\$\{[^}]+\}>\$\{[^}]+\}<\/button><div part="status" role="status">\$\{[^}]+\}<\/div>$/);
    assert.match(styles, /^:host\{display:inline-flex;flex-direction:column;gap:var\(--split-gap,0?\.5rem\)\}button\{min-height:max\(44px,var\(--split-min-height,48px\)\);padding:0 1\.25rem\}$/);
  }
});

test('integrity.json names the sha384 of every CDN file', () => {
  const manifest = JSON.parse(read(INTEGRITY_FILE)) as Record<string, string>;
  const files = readdirSync(out).filter((name) => name !== INTEGRITY_FILE).sort();
  assert.deepEqual(Object.keys(manifest).sort(), files);
  for (const name of files) {
    assert.match(manifest[name]!, /^sha384-[A-Za-z0-9+/]{64}$/);
    assert.equal(manifest[name], integrityOf(readFileSync(join(out, name))), name);
  }
});

test('the size script tells the pieces apart: first load, payment chunk, Nepali chunk', async () => {
  const pieces = await cdnPieces(out);
  assert.deepEqual(pieces.first, [CDN_ENTRY_FILE]);
  assert.equal(pieces.payment.length, 1);
  assert.match(pieces.payment[0]!, /^payment-/);
  assert.equal(pieces.ne.length, 1);
  assert.match(pieces.ne[0]!, /^ne-/);
  const [entry, payment, ne] = await measureFiles([CDN_ENTRY_FILE, pieces.payment[0]!, pieces.ne[0]!].map((name) => join(out, name)));
  const loads = await cdnLoads(out);
  assert.deepEqual(
    loads.map((load) => [load.name, load.gzip]),
    [
      [PAYER_EN_NAME, entry!.gzip + payment!.gzip],
      [NE_CHUNK_NAME, ne!.gzip],
    ],
  );
});
