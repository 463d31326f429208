// Proves each group of web-test-runner.config.mjs runs in the engine it is named for: a launcher that
// silently fell back to another browser would pass every other test.
import { expect } from '@open-wc/testing';

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
});
