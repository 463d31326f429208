/**
 * What the hand-off tests share: a host that renders the panel the way the element will (in its
 * shadow root, with the element's own styles, the panels' that the payment code adds when it first
 * draws, and the hand-off's adopted on top, its `variant` and `lang` attributes), and a QR reader for
 * the rendered SVG.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import type jsQRType from 'jsqr';
import { styles } from '../../../../src/element/styles.js';
import { panelStyles } from '../../../../src/element/panel-styles.js';
import { MIN_QR_PX, adoptHandoffStyles, handoffPanel, handoffStringsFor, type HandoffActions, type HandoffStatus } from '../../../../src/element/handoff/index.js';

/** A deeplink of the sandbox's shape (64 characters). */
export const SHORT_LINK = 'http://127.0.0.1:4011/pay/BK-3f2a9c1e-4b7d-4e8a-9c2f-1a2b3c4d5e6f';
/** A deeplink of 150 characters, query included. */
export const LONG_LINK = `https://links.wallet.test/pay/BK-3f2a9c1e-4b7d-4e8a-9c2f-1a2b3c4d5e6f?ref=REF-ABCDEF1234567890&lang=ne&return=${'x'.repeat(150)}`.slice(0, 150);

/** The calls the panel's actions received, in order. */
export type Calls = Array<keyof HandoffActions>;

/** Renders `handoffPanel` in its shadow root like the element will. */
export class HandoffTestHost extends LitElement {
  static override styles = [styles, panelStyles];
  static override properties = { deeplink: {}, status: {}, langAttr: { attribute: 'lang' } };
  declare deeplink: string;
  declare status: HandoffStatus;
  declare langAttr: string | undefined;
  readonly calls: Calls = [];
  readonly actions: HandoffActions = {
    useComputer: () => this.calls.push('useComputer'),
    cancel: () => this.calls.push('cancel'),
    newCode: () => this.calls.push('newCode'),
    checkAgain: () => this.calls.push('checkAgain'),
  };

  constructor() {
    super();
    this.deeplink = SHORT_LINK;
    this.status = 'waiting';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    adoptHandoffStyles(this.renderRoot as ShadowRoot);
  }

  override render() {
    return handoffPanel({ deeplink: new URL(this.deeplink), status: this.status }, this.actions, handoffStringsFor(this.langAttr, null));
  }
}
if (!customElements.get('handoff-test-host')) customElements.define('handoff-test-host', HandoffTestHost);

/** Mounts a host; `attrs` become attributes (`variant`, `lang`). */
export async function mountHandoff(options: { deeplink?: string; status?: HandoffStatus; attrs?: Record<string, string> } = {}): Promise<HandoffTestHost> {
  const el = await fixture<HandoffTestHost>(html`<handoff-test-host></handoff-test-host>`);
  for (const [name, value] of Object.entries(options.attrs ?? {})) el.setAttribute(name, value);
  el.deeplink = options.deeplink ?? SHORT_LINK;
  el.status = options.status ?? 'waiting';
  await el.updateComplete;
  return el;
}

/** The host's element of a part, or null. */
export function handoffPart<T extends Element = HTMLElement>(el: HandoffTestHost, name: string): T | null {
  return el.shadowRoot!.querySelector<T>(`[part~="${name}"]`);
}

let loading: Promise<typeof jsQRType> | undefined;

/** jsQR: its package is a UMD bundle, so it comes in as a classic script and is read off `window`. */
function jsQR(): Promise<typeof jsQRType> {
  return (loading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = '/node_modules/jsqr/dist/jsQR.js';
    script.onload = () => resolve((window as unknown as { jsQR: typeof jsQRType }).jsQR);
    script.onerror = () => reject(new Error('jsQR did not load'));
    document.head.append(script);
  }));
}

/** The QR SVG drawn onto a canvas at its own CSS size (a whole number of px per module). */
export interface DrawnQr {
  image: ImageData;
  /** Modules per side, quiet zone included (the viewBox). */
  modules: number;
  /** Pixels per module on the canvas. */
  scale: number;
}

/**
 * Draws the rendered SVG onto a canvas as the page styles it: the drawing is serialized with the
 * computed fill of every shape and the computed filter and opacity of the SVG, so a theme that
 * reached the code would show in the pixels.
 */
export async function drawQr(svg: SVGSVGElement): Promise<DrawnQr> {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const shapes = [...svg.querySelectorAll('rect, path')];
  [...copy.querySelectorAll('rect, path')].forEach((shape, index) => shape.setAttribute('fill', getComputedStyle(shapes[index]!).fill));
  const look = getComputedStyle(svg);
  copy.setAttribute('style', `filter:${look.filter};opacity:${look.opacity}`);
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const size = Math.round(svg.getBoundingClientRect().width);
  copy.setAttribute('width', String(size));
  copy.setAttribute('height', String(size));
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = size;
  const context = canvas.getContext('2d', { willReadFrequently: true })!;
  context.drawImage(image, 0, 0, size, size);
  const modules = svg.viewBox.baseVal.width;
  return { image: context.getImageData(0, 0, size, size), modules, scale: size / modules };
}

/** Decodes the QR code in `image`, reading dark on light only (as a phone camera is sure to). */
export async function decode(image: ImageData): Promise<string | null> {
  const read = await jsQR();
  return read(image.data, image.width, image.height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

/** The pixels of the quiet zone (the outer `4 × scale` px on every side) that are not pure white. */
export function darkInQuietZone({ image, scale }: DrawnQr): number {
  const band = Math.floor(4 * scale);
  let dark = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (x >= band && y >= band && x < image.width - band && y < image.height - band) continue;
      const i = (y * image.width + x) * 4;
      if (image.data[i]! < 255 || image.data[i + 1]! < 255 || image.data[i + 2]! < 255 || image.data[i + 3]! < 255) dark++;
    }
  }
  return dark;
}

/**
 * Themes everything a page can reach on `el` (the code included) and checks the code stays black on
 * white, full size, with its quiet zone, and decodes to {@link SHORT_LINK}.
 */
export async function expectReadableUnderThemedPage(el: HandoffTestHost): Promise<void> {
  el.style.cssText = 'color:#fff;background:#000;--wallet-pay-background:#000;--wallet-pay-color:#fff;--wallet-pay-accent:#fff;fill:#fff';
  const svg = el.shadowRoot!.querySelector<SVGSVGElement>('svg[part~="qr"]')!;
  const [rect, path] = [svg.querySelector('rect')!, svg.querySelector('path')!];
  expect(getComputedStyle(rect).fill).to.equal('rgb(255, 255, 255)');
  expect(getComputedStyle(path).fill).to.equal('rgb(0, 0, 0)');
  expect(svg.getBoundingClientRect().width).to.be.at.least(MIN_QR_PX);
  const drawn = await drawQr(svg);
  expect(darkInQuietZone(drawn)).to.equal(0);
  expect(await decode(drawn.image)).to.equal(SHORT_LINK);
}
