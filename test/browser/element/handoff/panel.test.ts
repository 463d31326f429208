import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { render } from 'lit/html.js';
import {
  flowHandoffPanel,
  HANDOFF_FOCUS_ID,
  handoffStringsFor,
  HANDOFF_STRINGS_EN,
  HANDOFF_STRINGS_NE,
  type HandoffStatus,
} from '../../../../src/element/handoff/index.js';
import { STRINGS_EN, STRINGS_NE } from '../../../../src/element/i18n/index.js';
import { SHORT_LINK, handoffPart, mountHandoff, type Calls, type HandoffTestHost } from './support.js';

const STATUSES: HandoffStatus[] = ['waiting', 'stalled', 'expired'];

/**
 * The part names of the actions in tab order, from the panel to the page's next focusable element.
 * The page gets one after the host: what Tab does past a page's last focusable element is the
 * browser's own, and none of it is the panel's. Chromium under Playwright keeps the page focused;
 * Firefox moves focus to its toolbar, the page's window loses focus, and later keys (in this test and
 * the next) activate no button although keydown still reaches it; WebKit's MiniBrowser wraps around
 * to the page's first element, so Tab never leaves the panel.
 */
async function tabThrough(el: HandoffTestHost): Promise<string[]> {
  const after = document.createElement('button');
  after.textContent = 'After the panel';
  el.after(after);
  el.shadowRoot!.getElementById(HANDOFF_FOCUS_ID)!.focus();
  const reached: string[] = [];
  try {
    // A bound, so a tab order that never leaves the panel fails here instead of timing out.
    for (let step = 0; step < 10; step += 1) {
      await sendKeys({ press: 'Tab' });
      const active = el.shadowRoot!.activeElement;
      if (!active) {
        expect(document.activeElement, 'focus after the last action').to.equal(after);
        return reached;
      }
      reached.push(active.getAttribute('part') ?? active.id);
    }
    throw new Error(`Tab did not leave the panel: ${reached.join(', ')}`);
  } finally {
    after.remove();
  }
}

/** Follows the deeplink nowhere: the test page must stay. */
function keepPage(el: HandoffTestHost): string[] {
  const followed: string[] = [];
  el.shadowRoot!.addEventListener('click', (event) => {
    const link = (event.target as Element).closest('a');
    if (!link) return;
    event.preventDefault();
    followed.push(link.href);
  });
  return followed;
}

describe('hand-off texts', () => {
  it('has a Nepali text for every English key, none left in English', () => {
    expect(Object.keys(HANDOFF_STRINGS_NE)).to.deep.equal(Object.keys(HANDOFF_STRINGS_EN));
    for (const [key, value] of Object.entries(HANDOFF_STRINGS_NE)) {
      expect(value, key).to.match(/[\u0900-\u097F]/);
      expect(value, key).to.not.equal(HANDOFF_STRINGS_EN[key as keyof typeof HANDOFF_STRINGS_EN]);
    }
  });

  it('leaves the offer button text to the button\'s own texts, in both languages: it shows before the hand-off loads', () => {
    expect(STRINGS_EN['handoff.offer']).to.equal('Pay with the app on your phone');
    expect(STRINGS_NE['handoff.offer']).to.equal('फोनको एपबाट भुक्तानी गर्नुहोस्');
    expect(HANDOFF_STRINGS_EN).to.not.have.property('handoff.offer');
    expect(HANDOFF_STRINGS_NE).to.not.have.property('handoff.offer');
  });

  it('picks the language like the element and takes only hand-off keys from the overrides', () => {
    expect(handoffStringsFor('ne-NP')).to.equal(HANDOFF_STRINGS_NE);
    expect(handoffStringsFor('new')).to.equal(HANDOFF_STRINGS_EN);
    expect(handoffStringsFor(null)).to.equal(HANDOFF_STRINGS_EN);
    const table = handoffStringsFor('en', { ...STRINGS_EN, 'handoff.new-code': 'Show a new code' });
    expect(table['handoff.new-code']).to.equal('Show a new code');
    expect(Object.keys(table)).to.deep.equal(Object.keys(HANDOFF_STRINGS_EN));
  });
});

describe('hand-off panel', () => {
  it('shows the code, the instructions, a real link to the deeplink and the actions while waiting', async () => {
    const el = await mountHandoff();
    const panel = handoffPart(el, 'handoff')!;
    expect(panel.getAttribute('role')).to.equal('group');
    expect(panel.getAttribute('aria-labelledby')).to.equal('handoff-title');
    expect(el.shadowRoot!.getElementById(panel.getAttribute('aria-describedby')!)!.textContent).to.equal(HANDOFF_STRINGS_EN['handoff.steps']);
    expect(handoffPart(el, 'qr')).to.not.equal(null);
    const link = handoffPart<HTMLAnchorElement>(el, 'open-here')!;
    expect(link.localName).to.equal('a');
    expect(link.href).to.equal(SHORT_LINK);
    expect(link.textContent).to.equal('Open on this device');
    expect(handoffPart(el, 'handoff-status')!.textContent).to.equal('Waiting for the payment on your phone…');
    expect(handoffPart(el, 'handoff-status')!.getAttribute('role')).to.equal('status');
    const actions = [...el.shadowRoot!.querySelectorAll('[part~="action"]')].map((node) => node.textContent);
    expect(actions).to.deep.equal(['Open on this device', 'Use this computer instead', 'Cancel payment']);
  });

  it('offers "Check again" once the five minutes ran out, and keeps the code', async () => {
    const el = await mountHandoff({ status: 'stalled' });
    expect(handoffPart(el, 'handoff-status')!.textContent).to.equal(HANDOFF_STRINGS_EN['handoff.stalled']);
    expect(handoffPart(el, 'qr')).to.not.equal(null);
    expect(handoffPart(el, 'check-again')!.textContent).to.equal('Check again');
  });

  it('takes the code away when the booking expired and offers a new one', async () => {
    const el = await mountHandoff();
    const status = handoffPart(el, 'handoff-status');
    el.status = 'expired';
    await el.updateComplete;
    expect(handoffPart(el, 'qr')).to.equal(null);
    expect(handoffPart(el, 'open-here')).to.equal(null);
    expect(handoffPart(el, 'handoff')!.hasAttribute('aria-describedby')).to.equal(false);
    // The same live region, so the change is announced.
    expect(handoffPart(el, 'handoff-status')).to.equal(status);
    expect(status!.textContent).to.equal('This code has expired.');
    expect(handoffPart(el, 'new-code')!.textContent).to.equal('Get a new code');
  });

  it('calls each action with nothing bound', async () => {
    const el = await mountHandoff({ status: 'stalled' });
    for (const name of ['check-again', 'use-computer', 'cancel']) handoffPart(el, name)!.click();
    el.status = 'expired';
    await el.updateComplete;
    handoffPart(el, 'new-code')!.click();
    expect(el.calls).to.deep.equal(['checkAgain', 'useComputer', 'cancel', 'newCode']);
  });

  it('a deeplink too long for a QR code: the panel says so and offers "Use this computer instead" and "Cancel payment", never an empty panel', async () => {
    const el = await mountHandoff({ deeplink: `https://links.wallet.test/pay/B1?ref=${'x'.repeat(3000)}` });
    expect(handoffPart(el, 'qr')).to.equal(null);
    expect(handoffPart(el, 'handoff-status')!.textContent).to.equal(HANDOFF_STRINGS_EN['handoff.too-long']);
    handoffPart<HTMLButtonElement>(el, 'use-computer')!.click();
    handoffPart<HTMLButtonElement>(el, 'cancel')!.click();
    expect(el.calls).to.deep.equal(['useComputer', 'cancel']);
    await expect(el).to.be.accessible();
  });

  it('is a focus target (HANDOFF_FOCUS_ID) whose name and instructions a screen reader reads first', async () => {
    const el = await mountHandoff();
    el.shadowRoot!.getElementById(HANDOFF_FOCUS_ID)!.focus();
    expect(el.shadowRoot!.activeElement).to.equal(handoffPart(el, 'handoff'));
    expect(handoffPart(el, 'handoff')!.tabIndex).to.equal(-1);
  });

  const ORDER: Record<HandoffStatus, string[]> = {
    waiting: ['action open-here', 'action use-computer', 'action cancel'],
    stalled: ['action open-here', 'action check-again', 'action use-computer', 'action cancel'],
    expired: ['action new-code', 'action use-computer', 'action cancel'],
  };
  const CALL: Record<string, Calls[number]> = {
    'check-again': 'checkAgain',
    'new-code': 'newCode',
    'use-computer': 'useComputer',
    cancel: 'cancel',
  };
  for (const status of STATUSES) {
    it(`reaches and runs every action by keyboard (${status})`, async () => {
      const el = await mountHandoff({ status });
      const followed = keepPage(el);
      expect(await tabThrough(el)).to.deep.equal(ORDER[status]);
      // Enter on the link and on each button, Space on each button.
      for (const key of ['Enter', ' ']) {
        for (const part of ORDER[status]) {
          if (key === ' ' && part.includes('open-here')) continue;
          el.shadowRoot!.querySelector<HTMLElement>(`[part="${part}"]`)!.focus();
          // ' ' is the one name of the space bar that Playwright, Puppeteer and WebDriver all know.
          await sendKeys({ press: key });
        }
      }
      // Each button ran its own action, once per key.
      const buttons = ORDER[status].filter((part) => !part.includes('open-here')).map((part) => CALL[part.slice('action '.length)]);
      expect(el.calls).to.deep.equal([...buttons, ...buttons]);
      expect(followed).to.deep.equal(status === 'expired' ? [] : [SHORT_LINK]);
    });
  }

  for (const lang of ['en', 'ne']) {
    for (const status of STATUSES) {
      it(`is accessible in ${lang === 'en' ? 'English' : 'Nepali'} (${status})`, async () => {
        const el = await mountHandoff({ status, attrs: { lang } });
        const table = lang === 'ne' ? HANDOFF_STRINGS_NE : HANDOFF_STRINGS_EN;
        expect(handoffPart(el, 'handoff-status')!.textContent).to.equal(table[`handoff.${status}`]);
        expect(handoffPart(el, 'cancel')!.textContent).to.equal(table['handoff.cancel']);
        if (status !== 'expired') expect(handoffPart(el, 'qr')!.getAttribute('aria-label')).to.equal(table['handoff.qr']);
        await expect(el).to.be.accessible();
      });
    }
  }

  it('keeps every action at least 44 px high, as the element does', async () => {
    const el = await mountHandoff({ status: 'stalled' });
    for (const node of el.shadowRoot!.querySelectorAll('[part~="action"]')) {
      expect(node.getBoundingClientRect().height, node.getAttribute('part')!).to.be.at.least(44);
    }
  });
});

describe('flowHandoffPanel (the hand-off panel of a payment\'s flow)', () => {
  /** The panel of `status` drawn into a fresh element, with a flow that records its calls. */
  function drawn(status: HandoffStatus, lang: string | null, overrides: Record<string, string> | null = null) {
    const calls: string[] = [];
    const record = (name: string) => () => void calls.push(name);
    const flow = { payOnWeb: record('payOnWeb'), cancel: record('cancel'), newCode: record('newCode'), checkAgain: record('checkAgain') };
    const root = document.createElement('div');
    render(flowHandoffPanel({ deeplink: new URL(SHORT_LINK), status }, flow, lang, overrides), root);
    const press = (name: string) => root.querySelector<HTMLButtonElement>(`[part~="${name}"]`)!.click();
    return { root, calls, press };
  }

  it('drives the flow: "Use this computer instead" pays on the web, the others call their own step', () => {
    const stalled = drawn('stalled', null);
    stalled.press('use-computer');
    stalled.press('check-again');
    stalled.press('cancel');
    expect(stalled.calls).to.deep.equal(['payOnWeb', 'checkAgain', 'cancel']);
    const expired = drawn('expired', null);
    expired.press('new-code');
    expect(expired.calls).to.deep.equal(['newCode']);
  });

  it('speaks the language it is given, with the element\'s overrides', () => {
    expect(drawn('waiting', 'ne').root.querySelector('[part~="cancel"]')!.textContent).to.equal(HANDOFF_STRINGS_NE['handoff.cancel']);
    expect(drawn('waiting', 'en', { 'handoff.cancel': 'Stop' }).root.querySelector('[part~="cancel"]')!.textContent).to.equal('Stop');
  });
});
