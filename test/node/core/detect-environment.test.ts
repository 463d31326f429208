import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isEnvironmentSetting, MOBILE_MAX_WIDTH, pathOf } from '../../../src/core/detect-environment.js';
import { USER_AGENT_CASES } from '../../fixtures/user-agents.js';

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const notInApp = () => false;

test('the spec\'s rule on real user agents, no in-app browser known', () => {
  for (const { name, expected, ...signals } of USER_AGENT_CASES.filter((c) => c.expected !== 'inapp')) assert.equal(pathOf(signals, notInApp), expected, name);
});

test('a phone is mobile only with a touch point and a viewport of at most 768 px', () => {
  assert.equal(pathOf({ userAgent: IPHONE, maxTouchPoints: 5, innerWidth: MOBILE_MAX_WIDTH }, notInApp), 'mobile');
  assert.equal(pathOf({ userAgent: IPHONE, maxTouchPoints: 5, innerWidth: MOBILE_MAX_WIDTH + 1 }, notInApp), 'desktop');
  assert.equal(pathOf({ userAgent: IPHONE, maxTouchPoints: 0, innerWidth: 390 }, notInApp), 'desktop');
  assert.equal(pathOf({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/121.0', maxTouchPoints: 5, innerWidth: 390 }, notInApp), 'desktop', 'no mobile token');
});

test('a known in-app browser on a phone comes first, then a WebView token, whatever the viewport', () => {
  const asked: string[] = [];
  const inApp = (userAgent: string) => (asked.push(userAgent), userAgent.includes('FBAN'));
  const facebook = `${IPHONE} [FBAN/FBIOS;FBAV/488.0]`;
  assert.equal(pathOf({ userAgent: facebook, maxTouchPoints: 5, innerWidth: 1200 }, inApp), 'inapp');
  assert.equal(pathOf({ userAgent: `${IPHONE.replace('iPhone;', 'Linux; Android 14; wv;')}`, maxTouchPoints: 0, innerWidth: 1200 }, inApp), 'webview');
  assert.equal(pathOf({ userAgent: 'MyApp/1.0 Flutter', maxTouchPoints: 0, innerWidth: 1200 }, inApp), 'webview');
  assert.equal(pathOf({ userAgent: 'Mozilla/5.0 (Windows NT 10.0) [FBAN/FBIOS]', maxTouchPoints: 0, innerWidth: 1200 }, inApp), 'desktop', 'an in-app token counts on a phone or tablet only');
  assert.ok(!asked.includes('MyApp/1.0 Flutter'), 'the in-app table is asked only for a mobile user agent');
});

test('isEnvironmentSetting takes auto and the four paths, nothing else', () => {
  for (const value of ['auto', 'desktop', 'mobile', 'webview', 'inapp']) assert.ok(isEnvironmentSetting(value), value);
  for (const value of ['', 'Mobile', 'tablet', null, undefined, 1]) assert.ok(!isEnvironmentSetting(value), String(value));
});
