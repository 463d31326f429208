import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isNepali, LABELS, langOf, wordingOf } from '../../../../src/element/i18n/lang.js';

test('a label in force is one of the wordings, else pay', () => {
  for (const label of LABELS) assert.equal(wordingOf(label), label);
  for (const label of ['Pay', 'order', '', null, undefined]) assert.equal(wordingOf(label), 'pay', String(label));
});

test('the one language rule: ne and its regions are Nepali, nothing else', () => {
  for (const lang of ['ne', 'ne-NP', 'NE', 'ne-IN']) assert.ok(isNepali(lang), lang);
  for (const lang of ['new', 'nep', 'en', 'en-NE', '', null, undefined]) assert.ok(!isNepali(lang), String(lang));
});

/** A minimal element tree with shadow roots: `closest('[lang]')` and `getRootNode()`, as the DOM answers them. */
class FakeShadowRoot {
  constructor(readonly host: FakeElement) {}
}
class FakeElement {
  constructor(
    readonly lang: string | null,
    readonly parent: FakeElement | null = null,
    readonly root: FakeShadowRoot | null = null,
  ) {}
  closest(): FakeElement | null {
    return this.lang !== null ? this : (this.parent?.closest() ?? null);
  }
  getAttribute(): string | null {
    return this.lang;
  }
  getRootNode(): unknown {
    return this.root ?? {};
  }
}

test('the language at a node is the nearest lang, across shadow roots', (t) => {
  // The module reads the global ShadowRoot, as a browser has it.
  (globalThis as Record<string, unknown>)['ShadowRoot'] = FakeShadowRoot;
  t.after(() => delete (globalThis as Record<string, unknown>)['ShadowRoot']);
  const page = new FakeElement('ne-NP');
  const host = new FakeElement(null, page);
  const inside = new FakeElement(null, null, new FakeShadowRoot(host));
  assert.equal(langOf(inside as unknown as Element), 'ne-NP', 'through the shadow root to the page');
  const own = new FakeElement('en', null, new FakeShadowRoot(host));
  assert.equal(langOf(own as unknown as Element), 'en', 'its own first');
  assert.equal(langOf(new FakeElement(null) as unknown as Element), null, 'none anywhere');
});
