/**
 * The detector on the signals of the browser the test runs in (each group: a desktop, an emulated
 * phone, Firefox, WebKit). The table of other browsers' signals is tested in Node
 * (test/node/core/environment.test.ts).
 */
import { expect } from '@open-wc/testing';
import { detectEnvironment } from '../../../src/core/environment.js';

describe('detectEnvironment in this browser', () => {
  it('classifies the running browser with its real signals', () => {
    const env = detectEnvironment({
      userAgent: navigator.userAgent,
      maxTouchPoints: navigator.maxTouchPoints,
      innerWidth: window.innerWidth,
    });
    const phone = /iPhone|Android/.test(navigator.userAgent);
    expect(env).to.equal(phone ? 'mobile' : 'desktop');
  });
});
