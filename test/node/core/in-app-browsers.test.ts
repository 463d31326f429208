/**
 * The table of known in-app browsers against real user agents of each app (each with its public source,
 * test/fixtures/user-agents.ts), and the way from each to the phone's own browser.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { IN_APP_BROWSERS, inAppBrowser } from '../../../src/core/in-app-browsers.js';
import { detectEnvironment } from '../../../src/core/environment.js';
import { pathOf } from '../../../src/core/detect-environment.js';
import { browserWay } from '../../../src/core/open-in-browser.js';
import { IN_APP_USER_AGENTS, NOT_IN_APP_USER_AGENTS } from '../../fixtures/user-agents.js';

const phone = (userAgent: string) => ({ userAgent, maxTouchPoints: 5, innerWidth: 390 });

describe('known in-app browsers', () => {
  for (const { app, platform, userAgent, source } of IN_APP_USER_AGENTS) {
    it(`${app} on ${platform} (${source}) is recognised, before the WebView rule`, () => {
      assert.equal(inAppBrowser(userAgent)?.id, app);
      assert.equal(detectEnvironment(phone(userAgent)), 'inapp');
    });
  }

  it('every app of the table has a real user agent on Android or iOS, and the named ones on both where published', () => {
    for (const { id } of IN_APP_BROWSERS) assert.ok(IN_APP_USER_AGENTS.some((row) => row.app === id), `${id} has no user agent`);
    for (const id of ['facebook', 'messenger', 'instagram', 'threads', 'tiktok', 'snapchat', 'line', 'x', 'pinterest', 'wechat']) {
      for (const platform of ['android', 'ios']) assert.ok(IN_APP_USER_AGENTS.some((row) => row.app === id && row.platform === platform), `${id} on ${platform}`);
    }
  });

  it("matches the apps' tokens, not wv: Meta's and TikTok's Android agents without wv are in-app browsers", () => {
    const withoutWv = IN_APP_USER_AGENTS.filter((row) => row.platform === 'android' && !/\bwv\)/.test(row.userAgent));
    assert.deepEqual(new Set(withoutWv.map((row) => row.app)), new Set(['facebook', 'tiktok', 'whatsapp']));
    for (const { userAgent } of withoutWv) assert.equal(detectEnvironment(phone(userAgent)), 'inapp');
  });

  for (const { name, userAgent, source } of NOT_IN_APP_USER_AGENTS) {
    it(`${name} (${source}) is no in-app browser`, () => {
      assert.equal(inAppBrowser(userAgent), null);
    });
  }

  it('a plain WebView stays a WebView (a host app may take the payment)', () => {
    const webview = NOT_IN_APP_USER_AGENTS.find((row) => row.name.startsWith('a plain Android WebView'))!;
    assert.equal(detectEnvironment(phone(webview.userAgent)), 'webview');
  });

  it('the rule without the table (the element\'s first module, before the payment code) reads each as the phone it is, never as in-app', () => {
    for (const { userAgent } of IN_APP_USER_AGENTS) {
      assert.ok(['mobile', 'webview'].includes(pathOf(phone(userAgent), () => false)), userAgent);
      assert.equal(pathOf(phone(userAgent), inAppBrowser), detectEnvironment(phone(userAgent)));
    }
  });

  it('needs a phone or tablet token: a desktop app with such a token is a desktop', () => {
    assert.equal(detectEnvironment({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) MicroMessenger/7.0 WindowsWechat', maxTouchPoints: 0, innerWidth: 1280 }), 'desktop');
  });
});

describe('the way to the phone\'s own browser', () => {
  const ua = (app: string, platform: 'android' | 'ios') => IN_APP_USER_AGENTS.find((row) => row.app === app && row.platform === platform)!.userAgent;
  const page = 'https://shop.test/checkout?item=A-1#pay';

  it('Android in Facebook, Instagram, Messenger, Threads: an intent to the same page, fragment dropped', () => {
    for (const app of ['facebook', 'instagram', 'messenger', 'threads']) {
      assert.deepEqual(browserWay(page, ua(app, 'android')), {
        kind: 'link',
        href: 'intent://shop.test/checkout?item=A-1#Intent;scheme=https;end',
        url: 'https://shop.test/checkout?item=A-1',
      });
    }
  });

  it('iOS in Facebook, Messenger, TikTok, LinkedIn: x-safari-https', () => {
    for (const app of ['facebook', 'messenger', 'tiktok', 'linkedin']) {
      assert.deepEqual(browserWay(page, ua(app, 'ios')), { kind: 'link', href: 'x-safari-https://shop.test/checkout?item=A-1', url: 'https://shop.test/checkout?item=A-1' });
    }
  });

  it('LINE: its own openExternalBrowser parameter, on both platforms', () => {
    for (const platform of ['android', 'ios'] as const) {
      assert.equal((browserWay(page, ua('line', platform)) as { href: string }).href, 'https://shop.test/checkout?item=A-1&openExternalBrowser=1');
    }
  });

  it('elsewhere (Instagram on iOS since 424, X, TikTok on Android, ...): the address to copy', () => {
    for (const [app, platform] of [['instagram', 'ios'], ['x', 'ios'], ['x', 'android'], ['tiktok', 'android'], ['snapchat', 'android'], ['pinterest', 'ios']] as const) {
      assert.deepEqual(browserWay(page, ua(app, platform)), { kind: 'copy', url: 'https://shop.test/checkout?item=A-1' });
    }
  });

  it('an address that is no http(s) page, or carries credentials, gives no way at all', () => {
    assert.equal(browserWay('file:///etc/passwd', ua('facebook', 'android')), null);
    assert.equal(browserWay('https://user:pw@shop.test/', ua('facebook', 'android')), null);
    assert.equal(browserWay('javascript:alert(1)', ua('facebook', 'ios')), null);
  });
});
