/**
 * The environment detector as the plain function it is, over a table of real browsers' signals (Node, no
 * DOM). The browser tests classify the browser they run in (test/browser/core/environment.test.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectEnvironment, resolveEnvironment, isEnvironmentSetting } from '../../../src/core/environment.js';
import { USER_AGENT_CASES } from '../../fixtures/user-agents.js';

describe('detectEnvironment', () => {
  it('has a table of at least 30 real browsers', () => {
    assert.ok(USER_AGENT_CASES.length >= 30, `only ${USER_AGENT_CASES.length} browsers in the table`);
  });

  for (const { name, expected, ...signals } of USER_AGENT_CASES) {
    it(`${name} → ${expected}`, () => {
      assert.equal(detectEnvironment(signals), expected);
    });
  }
});

describe('resolveEnvironment', () => {
  const phone = { userAgent: 'Mozilla/5.0 (iPhone)', maxTouchPoints: 5, innerWidth: 390 };

  it('applies the rule for auto', () => {
    assert.equal(resolveEnvironment('auto', phone), 'mobile');
  });

  it('lets a forced setting win over the rule', () => {
    assert.equal(resolveEnvironment('desktop', phone), 'desktop');
    assert.equal(resolveEnvironment('webview', phone), 'webview');
  });

  it('knows which strings are settings', () => {
    assert.equal(['auto', 'desktop', 'mobile', 'webview'].every(isEnvironmentSetting), true);
    assert.equal(isEnvironmentSetting('tablet'), false);
    assert.equal(isEnvironmentSetting(''), false);
  });
});
