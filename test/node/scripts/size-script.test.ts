import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BUDGETS,
  CDN_ENTRY,
  CDN_IIFE,
  CEILINGS,
  CLASSIC_ALLOWANCE_PERCENT,
  ENTRY_BUDGET,
  ESM_PIECES_NAME,
  HANDOFF_CHUNK_NAME,
  NE_CHUNK_NAME,
  OWN_CODE_NAME,
  PAYER_EN_NAME,
  budgetsFor,
  classicBudget,
  elementOwnCode,
  emptyStrings,
  entryStanding,
  importsOf,
  overBudget,
  ownLogicAlone,
  verdicts,
  type SizeResult,
} from '../../../scripts/size.mjs';

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

// The budgets decided for this release, fed with the sizes measured when they were decided (gzip
// bytes of one build): the entry 9,056, the payment chunk 10,527 (a whole English payment 19,583),
// the Nepali chunk 1,339, the hand-off chunk 4,095, the classic file 23,389, the element's own code
// 3,576. The ESM pieces the classic file inlines sum to 25,017.
const MEASURED = { entry: 9056, payment: 10527, ne: 1339, handoff: 4095, classic: 23389, ownCode: 3576 } as const;
const PIECES = MEASURED.entry + MEASURED.payment + MEASURED.ne + MEASURED.handoff;

function measured(over: Partial<Record<keyof typeof MEASURED, number>> = {}): SizeResult[] {
  const m = { ...MEASURED, ...over };
  const gz = (name: string, gzip: number): SizeResult => ({ name, raw: gzip * 3, gzip, brotli: Math.round(gzip * 0.9) });
  return [
    gz(CDN_ENTRY, m.entry),
    gz(CDN_IIFE, m.classic),
    gz(PAYER_EN_NAME, m.entry + m.payment),
    gz(NE_CHUNK_NAME, m.ne),
    gz(HANDOFF_CHUNK_NAME, m.handoff),
    gz(ESM_PIECES_NAME, m.entry + m.payment + m.ne + m.handoff),
    gz(OWN_CODE_NAME, m.ownCode),
  ];
}

const failing = (results: SizeResult[]) => overBudget(results, budgetsFor(results)).map((item) => [item.name, item.over]);

test('the CDN entry budget is 8,192 bytes gzip: 8,192 passes, 8,193 fails, and today\'s 9,056 is 864 over', () => {
  assert.equal(ENTRY_BUDGET, 8192);
  assert.deepEqual(BUDGETS, [{ name: CDN_ENTRY, gzip: 8192 }]);
  assert.deepEqual(failing(measured({ entry: 8192, payment: 10527 + 864 })), []);
  assert.deepEqual(failing(measured({ entry: 8193, payment: 10527 + 863 })), [[CDN_ENTRY, 1]]);
  assert.deepEqual(failing(measured()), [[CDN_ENTRY, 864]]);
});

test('the entry\'s standing says how many bytes over 8,192 it is, or how many are left, with Lit\'s share', () => {
  const lit: SizeResult = { name: 'lit', raw: 14903, gzip: 5724, brotli: 5175 };
  assert.equal(
    entryStanding(measured(), lit),
    'CDN entry (the first module every visitor waits for): 9056 bytes gzip, 864 bytes OVER its budget of 8192. Lit\'s reactive core is 5724 of it, so the element\'s first module has 2468 bytes gzip inside the budget.',
  );
  assert.match(entryStanding(measured({ entry: 8000 })), /8000 bytes gzip, 192 bytes under its budget of 8192\.$/);
  assert.match(entryStanding([]), /was not measured/);
});

test('the first module\'s own-code budget is retired: no budget names it, and any own-code size passes the budgets', () => {
  const budgets = budgetsFor(measured());
  assert.ok(!budgets.some((budget) => budget.name === OWN_CODE_NAME), 'a budget names the own code');
  assert.deepEqual(failing(measured({ entry: 8192, ownCode: 50_000 })), []);
});

test('the whole English payment and the Nepali chunk have no budget of their own: --budgets enforces their ceilings', () => {
  const budgets = budgetsFor(measured());
  assert.deepEqual(
    budgets.map((budget) => [budget.name, budget.kind ?? 'budget']),
    [
      [CDN_ENTRY, 'budget'],
      [CDN_IIFE, 'budget'],
      [PAYER_EN_NAME, 'ceiling'],
      [NE_CHUNK_NAME, 'ceiling'],
    ],
  );
  // Their limits are their regression ceilings, not budgets of their own.
  for (const name of [PAYER_EN_NAME, NE_CHUNK_NAME]) {
    assert.equal(budgets.find((budget) => budget.name === name)!.gzip, CEILINGS.find((ceiling) => ceiling.name === name)!.gzip);
  }
  // Far above their ceilings, within the entry's budget and the classic file's: --budgets fails on the two ceilings alone.
  const big = measured({ entry: 8192, payment: 20_000, ne: 3000, classic: 30_000 });
  assert.deepEqual(failing(big), [
    [PAYER_EN_NAME, 8192 + 20_000 - 24690],
    [NE_CHUNK_NAME, 3000 - 1700],
  ]);
});

test('the ceilings of the whole English payment and the Nepali chunk are not above their recorded values', () => {
  // 19,600 and 1,345 when their budgets were retired; raised four times (the whole payment the fourth for the in-app first render, the Nepali chunk for words moved out of the entry), then the whole payment lowered to 24,690 with one template drawing the shadow root, with the reasons in scripts/size.mjs.
  // Lower these with the ceilings; never raise them again without a behaviour that needs it.
  const recorded = new Map([
    [PAYER_EN_NAME, 24690],
    [NE_CHUNK_NAME, 1700],
  ]);
  for (const [name, gzip] of recorded) {
    const ceiling = CEILINGS.find((item) => item.name === name);
    assert.ok(ceiling, `no regression ceiling for ${name}`);
    assert.ok(ceiling.gzip <= gzip, `the ceiling of ${name} is ${ceiling.gzip}, above its recorded ${gzip}: ceilings may only go down`);
    // Still a ceiling that today's build meets: one below the measure would fail every run.
    const today = name === PAYER_EN_NAME ? MEASURED.entry + MEASURED.payment : MEASURED.ne;
    assert.ok(ceiling.gzip >= today, `the ceiling of ${name} (${ceiling.gzip}) is below today's ${today}`);
  }
});

test('the classic file may be at most 3 % above the ESM pieces it inlines, from the same build', () => {
  assert.equal(CLASSIC_ALLOWANCE_PERCENT, 3);
  const results = measured({ entry: 8192, payment: 10527 + 864 });
  // 25,017 bytes of pieces: 3 % is 750.51, rounded down to 750.
  assert.deepEqual(classicBudget(results), { name: CDN_IIFE, gzip: 25767, relativeTo: 25017 });
  assert.equal(PIECES, 25017);
  assert.deepEqual(failing(measured({ entry: 8192, payment: 10527 + 864, classic: 25767 })), []);
  assert.deepEqual(failing(measured({ entry: 8192, payment: 10527 + 864, classic: 25768 })), [[CDN_IIFE, 1]]);
  // Today's classic file, 23,389, is within it.
  assert.deepEqual(failing(results), []);
  // Relative: the same classic file fails when the pieces it inlines shrink without it.
  assert.deepEqual(failing(measured({ entry: 8192, payment: 6000, classic: 23389 })), [[CDN_IIFE, 23389 - Math.floor(((8192 + 6000 + 1339 + 4095) * 103) / 100)]]);
  // Without the pieces' measure of the same build there is no budget to check against.
  assert.throws(() => budgetsFor(results.filter((item) => item.name !== ESM_PIECES_NAME)), /needs the measure/);
});
