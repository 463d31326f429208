import { expect } from '@open-wc/testing';
import { detectEnvironment, resolveEnvironment, isEnvironmentSetting } from '../../../src/core/environment.js';
import { USER_AGENT_CASES } from '../../fixtures/user-agents.js';

describe('detectEnvironment', () => {
  it('has a table of at least 30 real browsers', () => {
    expect(USER_AGENT_CASES.length).to.be.at.least(30);
  });

  for (const { name, expected, ...signals } of USER_AGENT_CASES) {
    it(`${name} → ${expected}`, () => {
      expect(detectEnvironment(signals)).to.equal(expected);
    });
  }

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

describe('resolveEnvironment', () => {
  const phone = { userAgent: 'Mozilla/5.0 (iPhone)', maxTouchPoints: 5, innerWidth: 390 };

  it('applies the rule for auto', () => {
    expect(resolveEnvironment('auto', phone)).to.equal('mobile');
  });

  it('lets a forced setting win over the rule', () => {
    expect(resolveEnvironment('desktop', phone)).to.equal('desktop');
    expect(resolveEnvironment('webview', phone)).to.equal('webview');
  });

  it('knows which strings are settings', () => {
    expect(['auto', 'desktop', 'mobile', 'webview'].every(isEnvironmentSetting)).to.equal(true);
    expect(isEnvironmentSetting('tablet')).to.equal(false);
    expect(isEnvironmentSetting('')).to.equal(false);
  });
});
