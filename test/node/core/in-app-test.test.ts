/**
 * The first module's one-expression test of an in-app browser (in-app-test.ts) agrees with the in-app
 * browsers' table (in-app-browsers.ts) on every user agent the table's tests know: each app's, the
 * browsers and WebViews that are none, and those of the environment rule's cases; and on each token
 * of the table written bare, and inside a phone's user agent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isInAppBrowser } from '../../../src/core/in-app-test.js';
import { IN_APP_BROWSERS, inAppBrowser } from '../../../src/core/in-app-browsers.js';
import { IN_APP_USER_AGENTS, NOT_IN_APP_USER_AGENTS, USER_AGENT_CASES } from '../../fixtures/user-agents.js';

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

/** The top-level alternatives of a regular expression's source (a `|` inside parentheses is no split). */
function alternatives(source: string): string[] {
  const found = [''];
  let depth = 0;
  for (const char of source) {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    if (char === '|' && depth === 0) found.push('');
    else found[found.length - 1] += char;
  }
  return found;
}

const agree = (userAgent: string, about: string) => assert.equal(isInAppBrowser(userAgent), inAppBrowser(userAgent) !== null, `${about}: ${userAgent}`);

test('every in-app user agent of the fixtures is one for both', () => {
  assert.ok(IN_APP_USER_AGENTS.length >= IN_APP_BROWSERS.length);
  for (const { app, userAgent } of IN_APP_USER_AGENTS) {
    assert.equal(isInAppBrowser(userAgent), true, `${app}: ${userAgent}`);
    agree(userAgent, app);
  }
});

test('every user agent of the fixtures that is no in-app browser is none for both', () => {
  assert.ok(NOT_IN_APP_USER_AGENTS.length > 0);
  for (const { name, userAgent } of NOT_IN_APP_USER_AGENTS) {
    assert.equal(isInAppBrowser(userAgent), false, `${name}: ${userAgent}`);
    agree(userAgent, name);
  }
});

test("the environment rule's user agents agree", () => {
  assert.ok(USER_AGENT_CASES.length > 0);
  for (const { userAgent } of USER_AGENT_CASES) agree(userAgent, 'environment case');
});

test("each app's tokens of the table, as its own sample strings, agree: a token added to the table alone fails here", () => {
  // Strings the table's own expressions match, built from their sources: the literal text of each
  // alternative with its patterns made concrete (a digit, the first of a choice).
  for (const { id, token } of IN_APP_BROWSERS) {
    for (const alternative of alternatives(token.source)) {
      const sample = alternative
        .replace(/\\b/g, '')
        .replace(/\\d/g, '1')
        .replace(/\((\w+)\|\w+\)/g, '$1')
        .replace(/\\\//g, '/')
        .replace(/\\\[/g, '[')
        .replace(/\\\]/g, ']')
        .replace(/\/\?/g, '/');
      assert.ok(token.test(sample), `${id}: the sample ${sample} of ${alternative}`);
      agree(sample, id);
      agree(`${ANDROID} ${sample}`, id);
    }
  }
});

test('a plain phone browser and the near misses are none', () => {
  for (const userAgent of [ANDROID, `${ANDROID} Instagram`, `${ANDROID} LinkedIn`, `${ANDROID} xLine/1`, `${ANDROID} Twitter`, `${ANDROID} [Pinterest/Web]`]) agree(userAgent, 'near miss');
  assert.equal(isInAppBrowser(ANDROID), false);
});
