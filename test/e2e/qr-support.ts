/**
 * Reading a QR code the way a phone camera would: from pixels on the screen. A Playwright screenshot
 * (PNG) is turned into RGBA with pngjs and decoded with jsQR, dark on light only.
 */
import { Buffer } from 'node:buffer';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Locator, Page } from 'playwright';

/** The text of the QR code in a PNG image, or null when none can be read. */
export function decodeQrPng(png: Buffer): string | null {
  const { data, width, height } = PNG.sync.read(png);
  const rgba = new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength);
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

/**
 * Screenshots the page's viewport as the shopper sees it (or only `within`, when given) and returns the
 * QR code's text; fails when there is no readable code, attaching nothing but the reason.
 */
export async function readQrFromPage(page: Page, within?: Locator): Promise<string> {
  const png = within ? await within.screenshot({ animations: 'disabled' }) : await page.screenshot({ animations: 'disabled' });
  const text = decodeQrPng(png);
  if (text === null) throw new Error(`No readable QR code in the screenshot of ${within ? 'the given element' : page.url()}.`);
  return text;
}
