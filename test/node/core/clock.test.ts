import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../src/core/clock.js';

test("the system clock reads Date.now and sets and clears the given window's timers", async () => {
  const clock = systemClock();
  const before = Date.now();
  assert.ok(clock.now() >= before && clock.now() <= Date.now());
  const fired = await new Promise<boolean>((resolve) => {
    clock.setTimeout(() => resolve(true), 5);
    setTimeout(() => resolve(false), 2_000);
  });
  assert.ok(fired, 'the timer fired');
  let cleared = true;
  const handle = clock.setTimeout(() => (cleared = false), 5);
  clock.clearTimeout(handle);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.ok(cleared, 'a cleared timer does not fire');
});

test("the clock uses the window it is given, not the global one", () => {
  const calls: string[] = [];
  const win = {
    setTimeout: ((_callback: () => void, ms: number) => (calls.push(`set ${ms}`), 7)) as unknown as Window['setTimeout'],
    clearTimeout: ((handle: number) => void calls.push(`clear ${handle}`)) as Window['clearTimeout'],
  };
  const clock = systemClock(win);
  const handle = clock.setTimeout(() => {}, 250);
  clock.clearTimeout(handle);
  assert.deepEqual(calls, ['set 250', 'clear 7']);
});
