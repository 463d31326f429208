/**
 * The hand-off panel by keyboard: every action reached by Tab from the panel and run by Enter and
 * Space. Chromium only (listed in web-test-runner.config.mjs): Enter and Space sent through Firefox's
 * BiDi input or WebKit's WebDriver actions did not activate a focused button.
 */
import { expect } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { focusHandoff, type HandoffStatus } from '../../../src/element/handoff/index.js';
import { SHORT_LINK, mountHandoff, type HandoffTestHost } from './support.js';

const STATUSES: HandoffStatus[] = ['waiting', 'stalled', 'expired'];

/** The part names of the actions in tab order. */
async function tabThrough(el: HandoffTestHost): Promise<string[]> {
  focusHandoff(el.shadowRoot!);
  const reached: string[] = [];
  for (;;) {
    await sendKeys({ press: 'Tab' });
    const active = el.shadowRoot!.activeElement;
    if (!active) return reached;
    reached.push(active.getAttribute('part') ?? active.id);
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

describe('hand-off panel by keyboard', () => {
  const ORDER: Record<HandoffStatus, string[]> = {
    waiting: ['action open-here', 'action use-computer', 'action cancel'],
    stalled: ['action open-here', 'action check-again', 'action use-computer', 'action cancel'],
    expired: ['action new-code', 'action use-computer', 'action cancel'],
  };
  for (const status of STATUSES) {
    it(`reaches and runs every action by keyboard (${status})`, async () => {
      const el = await mountHandoff({ status });
      const followed = keepPage(el);
      expect(await tabThrough(el)).to.deep.equal(ORDER[status]);
      // Enter on the link and on each button, Space on each button, each reached by Tab from the panel
      // (as a keyboard user does; a scripted focus() does not move the keyboard's focus in every engine).
      for (const key of ['Enter', ' ']) {
        focusHandoff(el.shadowRoot!);
        for (const part of ORDER[status]) {
          await sendKeys({ press: 'Tab' });
          expect(el.shadowRoot!.activeElement?.getAttribute('part')).to.equal(part);
          if (key === ' ' && part.includes('open-here')) continue;
          await sendKeys({ press: key });
        }
      }
      const buttons = ORDER[status].filter((part) => !part.includes('open-here')).length;
      expect(el.calls).to.have.length(buttons * 2);
      expect(followed).to.deep.equal(status === 'expired' ? [] : [SHORT_LINK]);
    });
  }
});
