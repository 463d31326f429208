// Proves each group of web-test-runner.config.mjs runs in the engine it is named for (a launcher that
// silently fell back to another browser would pass every other test), and that the input commands
// of @web/test-runner-commands reach the page in each engine (WebKit's come from our own launcher).
import { expect, fixture, html } from '@open-wc/testing';
import { resetMouse, sendKeys, sendMouse } from '@web/test-runner-commands';

const ENGINE_OF_GROUP: Record<string, RegExp> = {
  desktop: /Chrome\//,
  android: /Android.*Chrome\//,
  iphone: /iPhone/,
  firefox: /Gecko\/\d+.*Firefox\//,
  webkit: /AppleWebKit\/.*Safari\//,
};

describe('browser engines', () => {
  it('runs in the engine its group is named for', () => {
    const group = document.documentElement.dataset['testGroup'] ?? 'default';
    const { userAgent } = navigator;
    const expected = ENGINE_OF_GROUP[group];
    if (!expected) return expect(group, 'a group without an engine check').to.equal('default');
    expect(userAgent).to.match(expected);
    if (group === 'webkit') expect(userAgent).not.to.match(/Chrome\/|Firefox\//);
    if (group === 'firefox') expect(userAgent).not.to.match(/Chrome\/|AppleWebKit\//);
  });

  it('takes typed keys and Tab from sendKeys', async () => {
    const form = await fixture<HTMLFormElement>(html`<form><input name="a" /><input name="b" /></form>`);
    const [a, b] = form.querySelectorAll('input');
    a!.focus();
    await sendKeys({ type: 'ok' });
    expect(a!.value).to.equal('ok');
    await sendKeys({ press: 'Tab' });
    expect(document.activeElement).to.equal(b);
  });

  it('takes a click from sendMouse', async () => {
    const button = await fixture<HTMLButtonElement>(
      html`<button style="position: fixed; left: 10px; top: 10px; width: 60px; height: 30px">x</button>`,
    );
    let clicks = 0;
    button.addEventListener('click', () => (clicks += 1));
    try {
      await sendMouse({ type: 'click', position: [40, 25] });
    } finally {
      await resetMouse();
    }
    expect(clicks).to.equal(1);
  });
});
