import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elementOwnCode, emptyStrings, importsOf, overBudget, ownLogicAlone, verdicts } from '../../scripts/size.mjs';

test('emptyStrings empties string literals and template texts and keeps everything else', async () => {
  const code = "import{a}from\"lit\";const b='Pay with wallet',c=`:host{x:1}${a}.b{}`,d=/re/g;";
  assert.equal(await emptyStrings(code), 'import{a}from"";const b=\'\',c=`${a}`,d=/re/g;');
});

test('the logic-alone measure is the own-code bundle less its strings, and still a real bundle', async () => {
  const [own, logic] = await Promise.all([elementOwnCode(), ownLogicAlone()]);
  assert.ok(logic.raw < own.raw * 0.8, `logic ${logic.raw} raw vs own code ${own.raw}`);
  assert.ok(logic.gzip < own.gzip, `logic ${logic.gzip} gzip vs own code ${own.gzip}`);
  // Emptied strings leave every function of the first module in place (properties, render, the
  // loading of the payment code): far more than a stub module.
  assert.ok(logic.raw > 2500, `logic ${logic.raw} raw`);
});

test('importsOf finds the relative static and dynamic imports of a built module, not bare ones', async () => {
  const code = 'import{a as b}from"./lit-x.min.js";export{c}from"./c.js";import"lit";const p=()=>import("./payment-AB1.min.js"),n=()=>import(`./ne-CD2.min.js`);';
  assert.deepEqual(await importsOf(code), { static: ['./lit-x.min.js', './c.js'], dynamic: ['./payment-AB1.min.js', './ne-CD2.min.js'] });
});

test('a budget is reported with its measure and verdict; a piece not built counts as over', () => {
  const limits = [
    { name: 'a', gzip: 100 },
    { name: 'b', gzip: 100 },
    { name: 'missing', gzip: 50 },
  ];
  const results = [
    { name: 'a', raw: 300, gzip: 90, brotli: 80 },
    { name: 'b', raw: 300, gzip: 130, brotli: 120 },
  ];
  const lines = verdicts(results, limits, 'budget');
  assert.match(lines[0]!, /^a\s+90 \/\s+100 budget {2}ok \(10 under\)$/);
  assert.match(lines[1]!, /^b\s+130 \/\s+100 budget {2}OVER by 30$/);
  assert.match(lines[2]!, /not built/);
  assert.deepEqual(
    overBudget(results, limits).map((item) => [item.name, item.missing, item.over]),
    [
      ['b', false, 30],
      ['missing', true, 0],
    ],
  );
});
