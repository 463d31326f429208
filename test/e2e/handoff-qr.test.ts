/**
 * The QR hand-off's building blocks end to end: the panel shows a real booking's deeplink as a QR
 * code on a desktop page; the code is read from a screenshot, opened on an emulated Pixel 7, and paid
 * there on the sandbox's wallet page; the booking is SUCCESS at the sandbox and the merchant verified
 * it. The element does not show the panel yet: the page renders the hand-off module itself, built
 * the way it ships (minified, Lit's production build).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright';
import { IDEMPOTENCY_HEADER } from '../../src/protocol/contract.js';
import { cleanConsole, confirmOnProviderPage, launchBrowser, openShopper, startPlayground, type Playground } from './support.js';
import { decodeQrPng, readQrFromPage } from './qr-support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE_ENTRY = 'virtual:handoff-page';

/**
 * A page script that renders the hand-off panel into `#host`'s shadow root as the element will (its
 * own styles, then the hand-off's), bundled with Lit and minified: `window.showHandoff(deeplink, lang)`.
 */
async function handoffPageScript(): Promise<string> {
  const { build } = await import('vite');
  const source = `
import { adoptStyles, render } from 'lit';
import { styles } from ${JSON.stringify(`${ROOT}src/element/styles.ts`)};
import { adoptHandoffStyles, HANDOFF_FOCUS_ID, handoffPanel, handoffStringsFor } from ${JSON.stringify(`${ROOT}src/element/handoff/index.ts`)};
window.showHandoff = (deeplink, lang) => {
  const host = document.getElementById('host');
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  adoptStyles(root, [styles]);
  adoptHandoffStyles(root);
  const calls = (window.handoffCalls = []);
  const actions = { useComputer: () => calls.push('useComputer'), cancel: () => calls.push('cancel'), newCode: () => calls.push('newCode'), checkAgain: () => calls.push('checkAgain') };
  render(handoffPanel({ deeplink: new URL(deeplink), status: 'waiting' }, actions, handoffStringsFor(lang)), root);
  root.getElementById(HANDOFF_FOCUS_ID).focus();
};`;
  const output = await build({
    configFile: false,
    root: ROOT,
    logLevel: 'silent',
    resolve: { conditions: ['production', 'browser', 'module'] },
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    plugins: [
      {
        name: 'handoff-page',
        resolveId: (id) => (id === PAGE_ENTRY ? `\0${PAGE_ENTRY}` : null),
        load: (id) => (id === `\0${PAGE_ENTRY}` ? source : null),
      },
    ],
    build: { write: false, target: 'es2022', minify: true, rolldownOptions: { input: PAGE_ENTRY, output: { format: 'es', codeSplitting: false } } },
  });
  // Without `watch`, build() resolves to the output (an array of them for several builds).
  const results = (Array.isArray(output) ? output : [output]) as Array<Extract<typeof output, { output: unknown }>>;
  const chunks = results.flatMap((result) => result.output).filter((chunk) => chunk.type === 'chunk');
  assert.equal(chunks.length, 1, 'the page script is one file');
  return chunks[0]!.code;
}

/** Books an `app` payment through the merchant's proxy, as the element's phone path does; returns the booking. */
async function bookForPhone(origin: string, orderId: string): Promise<{ booking_id: string; deeplink: string }> {
  const response = await fetch(`${origin}/api/pay/book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: randomUUID() },
    body: JSON.stringify({ channel: 'app', order: { id: orderId } }),
  });
  const body = (await response.json()) as { code: string; data?: { booking_id: string; deeplink: string; channel: string } };
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.data?.channel, 'app');
  return body.data!;
}

let pg: Playground;
let browser: Browser;
let script: string;

before(async () => {
  [pg, browser, script] = await Promise.all([startPlayground(), launchBrowser(), handoffPageScript()]);
});
after(async () => {
  await browser?.close();
  await pg?.close();
});

describe('QR hand-off', () => {
  test('a phone reads the code off the desktop screen, pays with an MPIN, and the booking is SUCCESS', async () => {
    const booking = await bookForPhone(pg.origin, 'A-1001');
    assert.ok(booking.deeplink.startsWith(`${pg.sandbox.linksUrl}/pay/`), booking.deeplink);

    const desktop = await openShopper(browser, 'desktop');
    await desktop.page.setContent('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Checkout</title></head><body><main id="host"></main></body></html>');
    await desktop.page.addScriptTag({ type: 'module', content: script });
    await desktop.page.waitForFunction(() => 'showHandoff' in window);
    await desktop.page.evaluate((deeplink) => (window as unknown as { showHandoff(link: string, lang: string): void }).showHandoff(deeplink, 'en'), booking.deeplink);
    const code = desktop.page.getByRole('img', { name: /QR code of the payment link/ });
    await code.waitFor();
    assert.ok(((await code.boundingBox())?.width ?? 0) >= 200, 'the code is at least 200 px wide');
    // The panel took focus, so a keyboard or screen reader user starts there.
    assert.equal(await desktop.page.evaluate(() => document.getElementById('host')!.shadowRoot!.activeElement?.id), 'handoff');

    // Read from the whole screen, as a camera would, not from the element alone.
    const decoded = await readQrFromPage(desktop.page);
    assert.equal(decoded, booking.deeplink);
    // The link beside it says the same.
    assert.equal(await desktop.page.getByRole('link', { name: 'Open on this device' }).getAttribute('href'), booking.deeplink);

    const phone = await openShopper(browser, 'pixel7');
    await phone.page.goto(decoded);
    await phone.page.getByRole('heading', { name: 'Wallet: confirm payment' }).waitFor();
    assert.equal((await phone.page.locator('dt:text-is("Booking") + dd').textContent())?.trim(), booking.booking_id);
    await confirmOnProviderPage(phone.page, '1234');
    // The wallet page sends the phone on to the merchant's return address with the result.
    await phone.page.waitForURL((url) => url.origin === pg.origin && url.searchParams.get('booking_id') === booking.booking_id);

    assert.equal(pg.sandbox.getBooking(booking.booking_id)?.status, 'SUCCESS');
    await pg.sandbox.whenCallbacksSettled();
    assert.equal(pg.records.get(booking.booking_id)?.status, 'SUCCESS', 'the merchant verified the result');
    assert.deepEqual(await desktop.page.evaluate(() => (window as unknown as { handoffCalls: string[] }).handoffCalls), []);
    assert.deepEqual(cleanConsole(desktop), []);
    assert.deepEqual(cleanConsole(phone), []);
    await Promise.all([desktop.context.close(), phone.context.close()]);
  });

  test('decodeQrPng finds no code in a screenshot without one', async () => {
    const shopper = await openShopper(browser, 'desktop');
    await shopper.page.setContent('<!doctype html><html lang="en"><body><p>No code here.</p></body></html>');
    assert.equal(decodeQrPng(await shopper.page.screenshot()), null);
    await shopper.context.close();
  });
});
