import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementOwnCode, emptyStrings, ownLogicAlone } from '../../scripts/size.mjs';

test('emptyStrings empties string literals and template texts and keeps everything else', async () => {
  const code = "import{a}from\"lit\";const b='Pay with wallet',c=`:host{x:1}${a}.b{}`,d=/re/g;";
  assert.equal(await emptyStrings(code), 'import{a}from"";const b=\'\',c=`${a}`,d=/re/g;');
});

test('the logic-alone measure is the own-code bundle less its strings, and still a real bundle', async () => {
  const [own, logic] = await Promise.all([elementOwnCode(), ownLogicAlone()]);
  assert.ok(logic.raw < own.raw * 0.8, `logic ${logic.raw} raw vs own code ${own.raw}`);
  assert.ok(logic.gzip < own.gzip, `logic ${logic.gzip} gzip vs own code ${own.gzip}`);
  // Emptied strings leave every function of the flow in place: far more than a stub module.
  assert.ok(logic.raw > 5000, `logic ${logic.raw} raw`);
});
