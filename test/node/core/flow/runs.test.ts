/**
 * The flow's runs, tested directly (Node, no DOM): one action at a time, a newer action aborts the
 * older one's requests, drops its timer and makes its late answers stale.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Clock } from '../../../../src/core/clock.js';
import { FlowRuns } from '../../../../src/core/flow/runs.js';
import { FakeClock } from '../../../support/fake-clock.js';

/** A {@link FakeClock} that records which handles were cleared, and may refuse to clear them. */
class RecordingClock extends FakeClock {
  readonly cleared: unknown[] = [];

  constructor(private readonly clears = true) {
    super();
  }

  override clearTimeout(handle: unknown): void {
    this.cleared.push(handle);
    if (this.clears) super.clearTimeout(handle);
  }
}

describe('FlowRuns: which run is live', () => {
  test('each run is live until the next one starts', () => {
    const runs = new FlowRuns({ clock: new FakeClock() });
    const first = runs.next();
    assert.equal(runs.live(first), true);
    const second = runs.next();
    assert.equal(runs.live(first), false, 'a newer run makes the older one stale');
    assert.equal(runs.live(second), true);
    assert.ok(second.gen > first.gen, `generation ${second.gen} follows ${first.gen}`);
  });

  test("a new run aborts the previous run's signal and starts with a fresh one", () => {
    const runs = new FlowRuns({ clock: new FakeClock() });
    const first = runs.next();
    assert.equal(first.signal.aborted, false);
    const second = runs.next();
    assert.equal(first.signal.aborted, true, "the older run's requests are stopped");
    assert.equal(second.signal.aborted, false);
    assert.notEqual(second.signal, first.signal);
  });

  test('two flows keep their runs apart', () => {
    const clock = new FakeClock();
    const one = new FlowRuns({ clock });
    const other = new FlowRuns({ clock });
    const run = one.next();
    other.next();
    other.next();
    assert.equal(one.live(run), true, "another flow's runs do not make this one stale");
    assert.equal(run.signal.aborted, false);
  });
});

describe('FlowRuns: the live run’s timer', () => {
  test('runs after its delay on the injected clock, once', async () => {
    const clock = new FakeClock();
    const runs = new FlowRuns({ clock });
    const run = runs.next();
    let calls = 0;
    runs.later(run, 1500, () => calls++);
    await clock.advance(1499);
    assert.equal(calls, 0, 'not before its delay');
    await clock.advance(1);
    assert.equal(calls, 1);
    await clock.advance(10_000);
    assert.equal(calls, 1, 'a timer runs once');
    assert.equal(clock.pending, 0);
  });

  test('a new run clears the older run’s timer, which never runs', async () => {
    const clock = new RecordingClock();
    const runs = new FlowRuns({ clock });
    const first = runs.next();
    let calls = 0;
    runs.later(first, 1000, () => calls++);
    assert.equal(clock.pending, 1);
    runs.next();
    assert.equal(clock.pending, 0, 'the timer is cleared, not left to fire');
    assert.equal(clock.cleared.length, 1);
    await clock.advance(5000);
    assert.equal(calls, 0);
  });

  test('a timer of a stale run that fires anyway does nothing', async () => {
    // A clock that cannot clear (or a second timer of the same run, which the runs do not track).
    const clock = new RecordingClock(false);
    const runs = new FlowRuns({ clock });
    const first = runs.next();
    let calls = 0;
    runs.later(first, 1000, () => calls++);
    runs.next();
    await clock.advance(1000);
    assert.equal(clock.pending, 0, 'the timer fired');
    assert.equal(calls, 0, 'its run is stale, so nothing runs');
  });

  test('an earlier timer of the same run, replaced by a later one, is dropped once a new run starts', async () => {
    const clock = new RecordingClock();
    const runs = new FlowRuns({ clock });
    const first = runs.next();
    const ran: string[] = [];
    runs.later(first, 1000, () => ran.push('early'));
    runs.later(first, 2000, () => ran.push('late'));
    runs.next();
    assert.equal(clock.pending, 1, 'only the last timer is cleared');
    await clock.advance(3000);
    assert.deepEqual(ran, [], 'the uncleared one finds its run stale');
  });

  test('a timer that has run is not cleared again by the next run', async () => {
    const clock = new RecordingClock();
    const runs = new FlowRuns({ clock });
    const run = runs.next();
    runs.later(run, 10, () => undefined);
    await clock.advance(10);
    runs.next();
    assert.deepEqual(clock.cleared, [], 'a spent handle is never handed back to the clock');
  });

  test('reads the clock from its dependencies at each use', async () => {
    const before = new FakeClock();
    const after = new FakeClock();
    const deps: { clock: Clock } = { clock: before };
    const runs = new FlowRuns(deps);
    deps.clock = after;
    let calls = 0;
    runs.later(runs.next(), 100, () => calls++);
    assert.deepEqual([before.pending, after.pending], [0, 1]);
    await after.advance(100);
    assert.equal(calls, 1);
  });
});
