import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantile, repeat, summarize } from './stats.js';

test('quantile interpolates between neighbours and refuses bad input', () => {
  assert.equal(quantile([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(quantile([10], 0.99), 10);
  assert.equal(quantile([1, 3], 0), 1);
  assert.equal(quantile([1, 3], 1), 3);
  assert.throws(() => quantile([], 0.5), /empty series/);
  assert.throws(() => quantile([1], 1.5), /within 0\.\.1; got 1\.5/);
  assert.throws(() => quantile([1], Number.NaN), /within 0\.\.1/);
});

test('summarize gives median, quartiles, extremes and a nearest-rank p99, whatever the order', () => {
  const samples = Array.from({ length: 100 }, (_, i) => 100 - i);
  const s = summarize(samples);
  assert.deepEqual(
    { n: s.n, median: s.median, min: s.min, max: s.max, q1: s.q1, q3: s.q3, p99: s.p99 },
    { n: 100, median: 50.5, min: 1, max: 100, q1: 25.75, q3: 75.25, p99: 99 },
  );
  assert.equal(summarize([5, 1, 3]).median, 3);
  assert.equal(summarize([7]).p99, 7);
});

test('summarize refuses an empty series and samples that are not finite numbers', () => {
  assert.throws(() => summarize([]), /at least one sample/);
  assert.throws(() => summarize([1, Number.NaN]), /not a finite number/);
  assert.throws(() => summarize([1, Number.POSITIVE_INFINITY]), /not a finite number/);
});

test('repeat runs warm-ups first, in order, and keeps only the measured runs', async () => {
  const seen: number[] = [];
  const kept = await repeat(2, 3, async (index) => {
    seen.push(index);
    return index * 10;
  });
  assert.deepEqual(seen, [0, 1, 2, 3, 4]);
  assert.deepEqual(kept, [20, 30, 40]);
});

test('repeat refuses counts that are not whole numbers', async () => {
  await assert.rejects(repeat(-1, 1, () => 0), /warmup must be a whole number >= 0; got -1/);
  await assert.rejects(repeat(0, 0, () => 0), /runs must be a whole number >= 1; got 0/);
  await assert.rejects(repeat(0.5, 1, () => 0), /warmup/);
});

test('repeat stops at the first failing run and passes its error on', async () => {
  let calls = 0;
  await assert.rejects(
    repeat(1, 5, (index) => {
      calls++;
      if (index === 2) throw new Error('sample 2 failed');
      return index;
    }),
    /sample 2 failed/,
  );
  assert.equal(calls, 3);
});
