import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { MIN_QR_PX } from '../../../src/element/handoff/index.js';
import { SHORT_LINK, darkInQuietZone, decode, drawQr, mountHandoff } from './support.js';

// Chromium only (web-test-runner.config.mjs): the colour scheme is emulated, which Firefox's and
// WebKit's drivers cannot do. The variants under the default scheme run in every engine (qr.test.ts).
afterEach(async () => {
  await emulateMedia({ colorScheme: 'light' });
});

const qrOf = (el: HTMLElement & { shadowRoot: ShadowRoot | null }) => el.shadowRoot!.querySelector<SVGSVGElement>('svg[part~="qr"]')!;

describe('hand-off QR code under both colour schemes', () => {
  for (const scheme of ['light', 'dark'] as const) {
    for (const variant of ['dark', 'light', 'outline', 'auto']) {
      it(`stays black on white, full size and readable: variant ${variant}, ${scheme} colour scheme`, async () => {
        await emulateMedia({ colorScheme: scheme });
        const el = await mountHandoff({ attrs: { variant } });
        // A page that themes everything it can reach, the code included.
        el.style.cssText = 'color:#fff;background:#000;--wallet-pay-background:#000;--wallet-pay-color:#fff;--wallet-pay-accent:#fff;fill:#fff';
        const svg = qrOf(el);
        const [rect, path] = [svg.querySelector('rect')!, svg.querySelector('path')!];
        expect(getComputedStyle(rect).fill).to.equal('rgb(255, 255, 255)');
        expect(getComputedStyle(path).fill).to.equal('rgb(0, 0, 0)');
        expect(svg.getBoundingClientRect().width).to.be.at.least(MIN_QR_PX);
        const drawn = await drawQr(svg);
        expect(darkInQuietZone(drawn)).to.equal(0);
        expect(await decode(drawn.image)).to.equal(SHORT_LINK);
      });
    }
  }

});
