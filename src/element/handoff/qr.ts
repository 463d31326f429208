/**
 * The hand-off's QR code: a deeplink drawn as an SVG the wallet app on a phone can scan.
 *
 * Encoder: `lean-qr` (MIT, ESM with types, no dependencies), its `lean-qr/nano` entry. Measured for
 * this module (an entry that turns a string into a module matrix at error correction M, bundled and
 * minified like the CDN files, gzip -9):
 *
 * | package (version)        | gzip B | raw B  | notes                                              |
 * | ------------------------ | -----: | -----: | -------------------------------------------------- |
 * | lean-qr/nano (2.7.4)     |  2,063 |  3,763 | byte mode behind a UTF-8 ECI header; level exact   |
 * | lean-qr (2.7.4)          |  3,570 |  6,841 | mixed modes; raises the level when it fits         |
 * | uqr (0.1.3)              |  3,779 | 10,158 | byte mode                                          |
 * | qr (0.7.0)               |  5,785 | 13,156 | byte mode                                          |
 * | qrcode-generator (2.0.4) |  7,269 | 20,691 | byte mode                                          |
 * | qrcode (1.5.4)           |  8,840 | 23,613 | CommonJS; types only from @types/qrcode            |
 *
 * Every one decoded back (jsQR) to the exact text for deeplinks of 60 to 150 characters (versions 4
 * to 8 at level M). nano is the smallest by 1.5 KB, which is what lets encoder, panel and both
 * languages fit the hand-off's 5 KB. Its cost: a 12-bit ECI header (UTF-8) before the bytes, which
 * ZXing (behind many Android scanners) and jsQR decode; no phone camera could be tried here. lean-qr
 * is maintained (the 2.7 line has had several releases; 2.7.4 is the latest).
 */
import { html, type TemplateResult } from 'lit/html.js';
import { correction, generate } from 'lean-qr/nano';

/** The quiet zone around the symbol, in modules: the 4 the QR standard requires. */
export const QUIET_ZONE = 4;

/** The code's smallest width in CSS px: enough for a phone camera about 1 m away. */
export const MIN_QR_PX = 200;

/** What the SVG is made of: numbers and a path built from numbers only. */
export interface QrGeometry {
  /** Modules per side, quiet zone included (the `viewBox` size). */
  modules: number;
  /** Width and height in CSS px: a whole number of px per module, at least {@link MIN_QR_PX}. */
  px: number;
  /** The dark modules as one path: a rectangle per horizontal run, offset by the quiet zone. */
  d: string;
}

/**
 * Encodes `text` in byte mode at error correction M (15% of the code may be unreadable, enough for
 * screen glare; Q would make a 150-character link a bigger, finer symbol for little gain).
 * @throws Error when `text` is longer than the largest QR code holds (about 2,300 bytes at level M).
 */
export function qrGeometry(text: string): QrGeometry {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const size = code.size;
  let d = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!code.get(x, y)) continue;
      const start = x;
      while (code.get(x + 1, y)) x++;
      d += `M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x + 1 - start}v1h-${x + 1 - start}z`;
    }
  }
  const modules = size + 2 * QUIET_ZONE;
  // Whole px per module keep the modules square and equal on a 1x screen; crispEdges does the rest.
  return { modules, px: modules * Math.ceil(MIN_QR_PX / modules), d };
}

/**
 * The QR code of `text` as an inline SVG (part `qr`): black modules on a white square with the quiet
 * zone inside it, fixed colours in every variant and colour scheme (a camera needs dark on light),
 * `role="img"` named by `label`.
 */
export function qrCode(text: string, label: string): TemplateResult {
  const { modules, px, d } = qrGeometry(text);
  return html`<svg part="qr" class="qr" role="img" aria-label=${label} width=${px} height=${px} viewBox="0 0 ${modules} ${modules}" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path fill="#000" d=${d}/></svg>`;
}
