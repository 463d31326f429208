import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HANDOFF_BUDGET, handoffBundle, handoffSize, offerBundle } from '../../../scripts/handoff-size.mjs';

test('the hand-off module (encoder, panel, styles, both languages) is within its 5 KB gzip budget', async () => {
  const size = await handoffSize();
  assert.equal(HANDOFF_BUDGET, 5120);
  assert.ok(size.gzip <= HANDOFF_BUDGET, `${size.name} is ${size.gzip} bytes gzip, over ${HANDOFF_BUDGET}`);
});

test('the measured bundle is the whole module with Lit left out', async () => {
  const code = await handoffBundle();
  // Lit stays an import (its templates, its styles): the page already has it.
  assert.match(code, /^import\{[^}]*\}from"lit\/html\.js";import\{[^}]*\}from"@lit\/reactive-element";/);
  assert.doesNotMatch(code, /lit-html|trustedTypes/, 'Lit itself is bundled in');
  assert.doesNotMatch(code, /class \w+ extends HTMLElement|customElements\.define/);
  // The encoder, the panel and both tables are in it: a stub could not pass the budget test.
  for (const text of ['lean-qr error', 'Use this computer instead', 'नयाँ कोड लिनुहोस्', 'crispEdges', 'forced-color-adjust']) {
    assert.ok(code.includes(text), `the bundle lacks ${JSON.stringify(text)}`);
  }
});

test('the offer text can be imported without the rest of the hand-off', async () => {
  const code = await offerBundle();
  assert.ok(code.includes('Pay with the app on your phone'));
  assert.deepEqual(code.match(/handoff\.[\w-]+/g), ['handoff.offer'], 'the first module\'s texts pull in a hand-off table');
  assert.ok(!code.includes('status.'), 'the first module\'s texts pull in the payment\'s');
  assert.ok(code.length < 1000, `the first module's English texts are ${code.length} bytes`);
});
