/**
 * Plays a booking's scenario after the shopper's confirm: its later steps on the sandbox's clock
 * (pending then paid, reverted later, paid after the merchant's cancel), its outage, and the twists
 * of its callbacks (lost, duplicated, late, dropped, reordered).
 */
import type { PaymentStatus } from '../../protocol/contract.js';
import type { SandboxClock } from '../clock.js';
import { findScenario, type Scenario } from './scenarios.js';
import type { SandboxBooking, SandboxService } from './service.js';

const LATE_MS = 6 * 60_000;
const REORDER_GAP_MS = 10_000;

/** What the player drives. */
export interface PlayerContext {
  service: SandboxService;
  clock: SandboxClock;
  /** Signs and schedules a callback of the booking as given. */
  notify: (booking: SandboxBooking, send?: { delayMs?: number; drop?: number }) => void;
  onStatusChange: (booking: SandboxBooking, notify: boolean) => void;
  log: (line: string) => void;
}

/** The statuses a scheduled step may start from. */
const STEP_FROM: Readonly<Record<string, readonly PaymentStatus[]>> = {
  SUCCESS: ['PENDING'],
  FAILED: ['PENDING'],
  REVERTED: ['SUCCESS'],
};

/** Runs scenarios' follow-ups. */
export class ScenarioPlayer {
  constructor(private readonly ctx: PlayerContext) {}

  /** After any status change: its callback (with the scenario's twist), and the follow-ups of a confirm. */
  statusChanged(booking: SandboxBooking, shouldNotify: boolean): void {
    const scenario = booking.scenario === undefined ? undefined : findScenario(booking.scenario);
    // The follow-ups first: an outage set by the confirm holds back the confirm's own callback.
    if (scenario && booking.history.at(-1)?.reason === `confirmed (${scenario.id})`) this.confirmed(booking, scenario);
    if (shouldNotify) this.deliver(booking, scenario);
  }

  /** The merchant's cancel succeeded: a paid-after-cancel scenario lands the payment anyway. */
  merchantCancelled(booking: SandboxBooking): void {
    const scenario = booking.scenario === undefined ? undefined : findScenario(booking.scenario);
    if (!scenario?.paidAfterCancelMs || !booking.history.some((change) => change.status === 'PENDING')) return;
    this.ctx.log(`booking ${booking.booking_id} [${scenario.id}]: cancelled by the merchant; the payment lands in ${scenario.paidAfterCancelMs / 1000} s`);
    this.ctx.clock.after(scenario.paidAfterCancelMs, () => {
      const paid = this.ctx.service.advanceScenario(booking.booking_id, ['CANCELED'], 'SUCCESS', `paid after the merchant cancelled (${scenario.id})`);
      if (paid) this.ctx.onStatusChange(paid, true);
    });
  }

  private confirmed(booking: SandboxBooking, scenario: Scenario): void {
    const { then } = scenario;
    if (then) {
      this.ctx.clock.after(then.afterMs, () => {
        const next = this.ctx.service.advanceScenario(booking.booking_id, STEP_FROM[then.status] ?? [], then.status, `${scenario.id} step`);
        if (next) this.ctx.onStatusChange(next, true);
      });
    }
    if (scenario.downMs) {
      this.ctx.service.startOutage(this.ctx.clock.now() + scenario.downMs, scenario.id);
      this.ctx.log(`service down for ${scenario.downMs / 1000} s [${scenario.id}] (booking ${booking.booking_id}): every API call answers 503`);
    }
  }

  private deliver(booking: SandboxBooking, scenario: Scenario | undefined): void {
    const { notify, log } = this.ctx;
    const tag = `callback ${booking.booking_id} [${scenario?.id}]`;
    switch (scenario?.callback) {
      case 'lost':
        log(`${tag}: not sent (the callback is lost)`);
        return;
      case 'duplicated':
        notify(booking);
        notify(booking);
        return;
      case 'late':
        log(`${tag}: sent in ${LATE_MS / 60_000} minutes (late)`);
        notify(booking, { delayMs: LATE_MS });
        return;
      case 'dropped-twice':
        notify(booking, { drop: 2 });
        return;
      case 'reordered':
        if (booking.status === 'SUCCESS') {
          log(`${tag}: SUCCESS held back until after the next status's callback`);
          return;
        }
        notify(booking);
        notify({ ...booking, status: 'SUCCESS' }, { delayMs: REORDER_GAP_MS });
        return;
      default: {
        // A callback of the outage's own booking comes once the service is back.
        const outage = scenario?.downMs ? this.ctx.service.outageNow() : undefined;
        const wait = outage === undefined ? 0 : Math.max(0, outage.until - this.ctx.clock.now());
        notify(booking, wait > 0 ? { delayMs: wait } : {});
      }
    }
  }
}
