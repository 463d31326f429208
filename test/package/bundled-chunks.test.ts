/**
 * The npm build as a merchant's bundler consumes it: `import 'wallet-pay-button/define'` bundled by
 * Vite into an app, whose payment code is a chunk of the bundler's own naming. Per engine (Chromium,
 * Firefox, WebKit): the network drops that chunk, then lets it through, and "Try again" loads it and
 * the payment goes on without a reload. The chunk's own imports are modules the page already runs,
 * which is what lets a fresh URL load it again.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT, checkoutPage, startMerchant, type Merchant } from './support.js';
import { ENGINES, WAIT, closeEngines, openEngine, startFront } from './engines.js';

let merchant: Merchant;
let app: string;
/** The bundler's chunk that holds the payment code, and the chunks its entry loads. */
let paymentChunk: string;
let entryChunks: string[];

before(async () => {
  const { build } = await import('vite');
  // Under the project, so `wallet-pay-button/define` resolves to the built package by its own name.
  app = await mkdtemp(join(ROOT, 'test/package/.bundle-chunks-'));
  await writeFile(join(app, 'index.html'), checkoutPage('<script type="module" src="./main.js"></script>'));
  await writeFile(join(app, 'main.js'), "import 'wallet-pay-button/define';\n");
  await build({ configFile: false, root: app, base: '/app/', logLevel: 'silent', build: { outDir: join(app, 'out'), emptyOutDir: true } });
  const assets = await readdir(join(app, 'out', 'assets'));
  const payment = assets.filter((name) => /^payment-[\w-]+\.js$/.test(name));
  assert.equal(payment.length, 1, `one payment chunk among ${assets.join(', ')}`);
  paymentChunk = payment[0]!;
  const html = await readFile(join(app, 'out', 'index.html'), 'utf8');
  entryChunks = [...html.matchAll(/\/app\/assets\/([\w-]+\.js)/g)].map((match) => match[1]!);
  merchant = await startMerchant({ directories: { '/app/': join(app, 'out') }, files: { '/app/index.html': { body: html } } });
});

after(async () => {
  await closeEngines();
  await merchant?.close();
  if (app) await rm(app, { recursive: true, force: true });
});

test("the bundler's payment chunk imports only chunks the entry has loaded already, so a fresh URL of it is all a retry needs", async () => {
  const code = await readFile(join(app, 'out', 'assets', paymentChunk), 'utf8');
  const imports = [...code.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w-]+\.js)["']/g)].map((match) => match[1]!);
  const entry = entryChunks.map((name) => readFile(join(app, 'out', 'assets', name), 'utf8'));
  const loaded = new Set(entryChunks);
  // The entry's own static imports are loaded with it.
  for (const text of await Promise.all(entry)) for (const match of text.matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([\w-]+\.js)["']/g)) loaded.add(match[1]!);
  for (const name of imports) assert.ok(loaded.has(name), `${paymentChunk} imports ${name}, which the entry (${[...loaded].join(', ')}) has not loaded`);
});

for (const engine of ENGINES) {
  test(`${engine}: the bundled payment chunk dropped by the network: "Try again" loads it and pays, without a reload`, async () => {
    const pattern = new RegExp(`/app/assets/${paymentChunk.replace(/[.-]/g, '\\$&')}`);
    const front = await startFront(merchant.origin, pattern);
    const page = await openEngine(engine);
    try {
      front.rule = { pattern, answer: 'drop' };
      await page.open(`${front.origin}/app/index.html`);
      const status = await page.run<string>(
        `${WAIT}
window.__samePage = true;
part('button').click();
await wait(() => part('retry'), 'Try again shows after the dropped chunk');
return statusText();`,
        'the dropped chunk is shown as an error with Try again',
      );
      assert.match(status, /could not reach the payment service/);
      const before = front.seen.length;
      front.rule = null;
      const paid = await page.run<{ reason: string; samePage: boolean }>(
        `${WAIT}
const navigate = new Promise((resolve) => el.addEventListener('wallet-pay-navigate', (event) => { event.preventDefault(); resolve(event.detail); }, { once: true }));
part('retry').click();
const detail = await Promise.race([navigate, new Promise((_, reject) => setTimeout(() => reject(new Error('no wallet-pay-navigate within 15 s of Try again')), 15000))]);
return { reason: detail.reason, samePage: window.__samePage === true };`,
        '"Try again" loads the chunk and books',
      );
      assert.equal(paid.reason, 'web-payment');
      assert.equal(paid.samePage, true, 'the page was not reloaded');
      assert.ok(front.seen.slice(before).some((line) => line.startsWith('GET ')), `"Try again" requested the chunk again: ${front.seen.join(', ')}`);
    } finally {
      await page.close();
      await front.close();
    }
  });
}
