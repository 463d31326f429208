import { expect } from '@open-wc/testing';
import { MIN_QR_PX, QUIET_ZONE, qrGeometry } from '../../../../src/element/handoff/index.js';
import { LONG_LINK, SHORT_LINK, darkInQuietZone, decode, drawQr, expectReadableUnderThemedPage, handoffPart, mountHandoff } from './support.js';

afterEach(() => {
  document.getElementById('hostile')?.remove();
});

const qrOf = (el: HTMLElement & { shadowRoot: ShadowRoot | null }) => el.shadowRoot!.querySelector<SVGSVGElement>('svg[part~="qr"]')!;

describe('hand-off QR code', () => {
  for (const [name, link] of [
    ['a short deeplink (64 characters)', SHORT_LINK],
    ['a long deeplink (150 characters)', LONG_LINK],
    ['a very long deeplink (600 characters)', `${SHORT_LINK}?state=${'a1-B2_c3~'.repeat(60)}`.slice(0, 600)],
  ] as const) {
    it(`decodes back to exactly ${name}`, async () => {
      const el = await mountHandoff({ deeplink: link });
      const drawn = await drawQr(qrOf(el));
      expect(await decode(drawn.image)).to.equal(link);
      expect(darkInQuietZone(drawn)).to.equal(0);
    });
  }

  it('is an SVG image with a name, crisp edges, a whole number of px per module and at least 200 px', async () => {
    const el = await mountHandoff({ deeplink: LONG_LINK });
    const svg = qrOf(el);
    expect(svg.getAttribute('role')).to.equal('img');
    expect(svg.getAttribute('aria-label')).to.equal('QR code of the payment link: scan it with the wallet app on your phone');
    expect(svg.getAttribute('shape-rendering')).to.equal('crispEdges');
    const { modules, px } = qrGeometry(LONG_LINK);
    // Version 8 (49 modules) at level M, plus the quiet zone.
    expect(modules).to.equal(49 + 2 * QUIET_ZONE);
    expect(svg.getAttribute('viewBox')).to.equal(`0 0 ${modules} ${modules}`);
    expect(px % modules).to.equal(0);
    const box = svg.getBoundingClientRect();
    expect(box.width).to.equal(px);
    expect(box.height).to.equal(px);
    expect(box.width).to.be.at.least(MIN_QR_PX);
  });

  it('keeps the quiet zone: no dark module closer than 4 modules to the edge', async () => {
    const { modules, d } = qrGeometry(SHORT_LINK);
    const numbers = [...d.matchAll(/M(\d+) (\d+)h(\d+)/g)].map(([, x, y, w]) => [Number(x), Number(y), Number(w)] as const);
    expect(numbers.length).to.be.greaterThan(0);
    for (const [x, y, w] of numbers) {
      expect(x).to.be.at.least(QUIET_ZONE);
      expect(y).to.be.at.least(QUIET_ZONE);
      expect(x + w).to.be.at.most(modules - QUIET_ZONE);
      expect(y + 1).to.be.at.most(modules - QUIET_ZONE);
    }
  });

  for (const variant of ['dark', 'light', 'outline', 'auto']) {
    it(`stays black on white, full size and readable: variant ${variant}`, async () => {
      await expectReadableUnderThemedPage(await mountHandoff({ attrs: { variant } }));
    });
  }

  it("cannot be inverted, faded, blended or shrunk through ::part(qr)", async () => {
    const style = document.createElement('style');
    style.id = 'hostile';
    style.textContent = 'handoff-test-host::part(qr){filter:invert(1);opacity:.2;mix-blend-mode:difference;background:#000;width:60px;height:60px;min-width:0;min-height:0;transform:scale(.3);forced-color-adjust:auto;fill:#fff}';
    document.head.append(style);
    const el = await mountHandoff();
    const svg = qrOf(el);
    const look = getComputedStyle(svg);
    expect(look.filter).to.equal('none');
    expect(look.opacity).to.equal('1');
    expect(look.mixBlendMode).to.equal('normal');
    expect(look.backgroundColor).to.equal('rgb(255, 255, 255)');
    expect(look.transform).to.equal('none');
    // WebKit has no forced colours mode (nor the property): nothing there can recolour the code.
    if (CSS.supports('forced-color-adjust', 'none')) expect(look.getPropertyValue('forced-color-adjust')).to.equal('none');
    expect(svg.getBoundingClientRect().width).to.be.at.least(MIN_QR_PX);
    expect(svg.getBoundingClientRect().height).to.be.at.least(MIN_QR_PX);
    const drawn = await drawQr(svg);
    expect(darkInQuietZone(drawn)).to.equal(0);
    expect(await decode(drawn.image)).to.equal(SHORT_LINK);
    expect(handoffPart(el, 'qr')).to.equal(svg);
  });
});
