/** The scenario player's logic, with a stub service and clock: the follow-ups of a confirm and the twists of callbacks. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScenarioPlayer, type PlayerContext } from '../../../../src/sandbox/esewa-intent/player.js';
import { SCENARIOS, type Scenario } from '../../../../src/sandbox/esewa-intent/scenarios.js';
import type { SandboxBooking } from '../../../../src/sandbox/esewa-intent/service.js';

const scenario = (has: (s: Scenario) => unknown): Scenario => {
  const found = SCENARIOS.find(has);
  assert.ok(found, 'the catalogue has such a scenario');
  return found;
};

/** A player on stubs, and what it did. */
function stage() {
  const timers: Array<{ ms: number; run: () => unknown }> = [];
  const sent: Array<{ status: string; send?: { delayMs?: number; drop?: number } }> = [];
  const changes: string[] = [];
  const advanced: Array<{ from: readonly string[]; to: string }> = [];
  const outages: Array<{ until: number; scenario: string }> = [];
  let now = 1_000;
  const ctx = {
    service: {
      advanceScenario: (bookingId: string, from: readonly string[], to: string) => (advanced.push({ from, to }), { booking_id: bookingId, status: to }),
      startOutage: (until: number, id: string) => void outages.push({ until, scenario: id }),
      outageNow: () => outages.at(-1),
    },
    clock: { now: () => now, after: (ms: number, run: () => unknown) => void timers.push({ ms, run }) },
    notify: (booking: SandboxBooking, send?: { delayMs?: number; drop?: number }) => void sent.push({ status: booking.status, ...(send ? { send } : {}) }),
    onStatusChange: (booking: SandboxBooking) => void changes.push(booking.status),
    log: () => {},
  } as unknown as PlayerContext;
  return { player: new ScenarioPlayer(ctx), timers, sent, changes, advanced, outages, tick: (ms: number) => (now += ms) };
}

const confirmed = (s: Scenario, status: string): SandboxBooking =>
  ({ booking_id: 'B-1', status, scenario: s.id, history: [{ status, reason: `confirmed (${s.id})` }] }) as unknown as SandboxBooking;

test('a plain confirm sends its callback once, at once', () => {
  const { player, sent, timers } = stage();
  const paid = scenario((s) => s.id === 'WPS-001');
  player.statusChanged(confirmed(paid, 'SUCCESS'), true);
  assert.deepEqual(sent, [{ status: 'SUCCESS', send: {} }]);
  assert.deepEqual(timers, []);
  player.statusChanged(confirmed(paid, 'SUCCESS'), false);
  assert.equal(sent.length, 1, 'no callback when told not to notify');
});

test("a scenario's later step runs on the clock from the status it may start from", () => {
  const { player, timers, advanced, changes } = stage();
  const stepped = scenario((s) => s.then?.status === 'SUCCESS');
  player.statusChanged(confirmed(stepped, 'PENDING'), true);
  assert.deepEqual(timers.map((t) => t.ms), [stepped.then!.afterMs]);
  timers[0]!.run();
  assert.deepEqual(advanced, [{ from: ['PENDING'], to: 'SUCCESS' }]);
  assert.deepEqual(changes, ['SUCCESS']);
});

test('the twists of callbacks: lost, duplicated, late, dropped twice', () => {
  const twist = (name: string) => {
    const s = stage();
    s.player.statusChanged(confirmed(scenario((sc) => sc.callback === name), 'SUCCESS'), true);
    return s.sent;
  };
  assert.deepEqual(twist('lost'), []);
  assert.deepEqual(twist('duplicated'), [{ status: 'SUCCESS' }, { status: 'SUCCESS' }]);
  assert.deepEqual(twist('late'), [{ status: 'SUCCESS', send: { delayMs: 6 * 60_000 } }]);
  assert.deepEqual(twist('dropped-twice'), [{ status: 'SUCCESS', send: { drop: 2 } }]);
});

test('reordered: the SUCCESS is held back and sent after the next status\'s callback', () => {
  const { player, sent } = stage();
  const reordered = scenario((s) => s.callback === 'reordered');
  player.statusChanged(confirmed(reordered, 'SUCCESS'), true);
  assert.deepEqual(sent, []);
  player.statusChanged({ ...confirmed(reordered, 'REVERTED'), history: [] } as unknown as SandboxBooking, true);
  assert.deepEqual(sent, [{ status: 'REVERTED' }, { status: 'SUCCESS', send: { delayMs: 10_000 } }]);
});

test("an outage starts at the confirm, and its own booking's callback waits for its end", () => {
  const { player, outages, sent } = stage();
  const down = scenario((s) => s.downMs !== undefined);
  player.statusChanged(confirmed(down, 'SUCCESS'), true);
  assert.deepEqual(outages, [{ until: 1_000 + down.downMs!, scenario: down.id }]);
  assert.deepEqual(sent, [{ status: 'SUCCESS', send: { delayMs: down.downMs } }]);
});

test("the merchant's cancel: a paid-after-cancel scenario lands the payment later, only after a PENDING", () => {
  const late = scenario((s) => s.paidAfterCancelMs !== undefined);
  const { player, timers, advanced, changes } = stage();
  const booking = { booking_id: 'B-1', status: 'CANCELED', scenario: late.id, history: [{ status: 'PENDING' }, { status: 'CANCELED' }] } as unknown as SandboxBooking;
  player.merchantCancelled(booking);
  assert.deepEqual(timers.map((t) => t.ms), [late.paidAfterCancelMs]);
  timers[0]!.run();
  assert.deepEqual(advanced, [{ from: ['CANCELED'], to: 'SUCCESS' }]);
  assert.deepEqual(changes, ['SUCCESS']);
  const never = stage();
  never.player.merchantCancelled({ ...booking, history: [{ status: 'CANCELED' }] } as unknown as SandboxBooking);
  never.player.merchantCancelled({ ...booking, scenario: 'WPS-001' } as unknown as SandboxBooking);
  assert.deepEqual(never.timers, []);
});
