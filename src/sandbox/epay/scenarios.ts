/**
 * The ePay v2 scenarios: data only, in the style of the intent catalogue (`../scenarios.ts`). An ID
 * never changes meaning once published. Chosen by a magic `total_amount` (`9100 + n` selects
 * `EPAY-00n`: 9101 is EPAY-001, ..., 9108 is EPAY-008; the intent catalogue's `9000 + n` stops at
 * WPS-016, so the ranges never meet) or by the picker on the login page, which overrides.
 */
import type { EpayStatus } from './ledger.js';

/** One ePay scenario. */
export interface EpayScenario {
  /** `EPAY-001`, ...: stable. */
  id: string;
  name: string;
  summary: string;
  /** The status right after the shopper's pay on the login page. */
  outcome: Extract<EpayStatus, 'COMPLETE' | 'NOT_FOUND' | 'CANCELED' | 'AMBIGUOUS' | 'PENDING'>;
  /** PENDING that never expires (the payment is under way at eSewa, not an abandoned session). */
  held?: boolean;
  /** The session's idle lifetime instead of the sandbox's. */
  lifetimeMs?: number;
  /** A later refund on the sandbox's clock, counted from the pay. */
  then?: { afterMs: number; status: 'FULL_REFUND' | 'PARTIAL_REFUND' };
}

const MINUTE = 60_000;

/** Every ePay scenario, in ID order. */
export const EPAY_SCENARIOS: readonly EpayScenario[] = [
  { id: 'EPAY-001', name: 'paid', summary: 'The shopper pays: COMPLETE, redirect to success_url with the signed data.', outcome: 'COMPLETE' },
  { id: 'EPAY-002', name: 'failed', summary: 'The payment fails: redirect to failure_url; the status check answers NOT_FOUND.', outcome: 'NOT_FOUND' },
  { id: 'EPAY-003', name: 'cancelled-by-shopper', summary: 'The shopper cancels at eSewa: redirect to failure_url; CANCELED, no ref_id.', outcome: 'CANCELED' },
  { id: 'EPAY-004', name: 'ambiguous', summary: 'The payment halts: redirect to failure_url; AMBIGUOUS with a ref_id.', outcome: 'AMBIGUOUS' },
  { id: 'EPAY-005', name: 'pending', summary: 'The payment stays PENDING for ever: redirect to failure_url.', outcome: 'PENDING', held: true },
  {
    id: 'EPAY-006',
    name: 'expired',
    summary: 'The session lives 1 min idle: the shopper leaves (failure_url), PENDING, then NOT_FOUND once it expires.',
    outcome: 'PENDING',
    lifetimeMs: MINUTE,
  },
  {
    id: 'EPAY-007',
    name: 'refunded-in-full',
    summary: 'COMPLETE, then FULL_REFUND 10 min later.',
    outcome: 'COMPLETE',
    then: { afterMs: 10 * MINUTE, status: 'FULL_REFUND' },
  },
  {
    id: 'EPAY-008',
    name: 'partially-refunded',
    summary: 'COMPLETE, then PARTIAL_REFUND of half the amount 10 min later.',
    outcome: 'COMPLETE',
    then: { afterMs: 10 * MINUTE, status: 'PARTIAL_REFUND' },
  },
];

const BY_ID = new Map(EPAY_SCENARIOS.map((scenario) => [scenario.id, scenario]));

/** The magic amounts: `9100 + n` rupees selects `EPAY-00n`. */
export const EPAY_MAGIC_AMOUNT_BASE = 9100;

/** An ePay scenario by its ID (case-insensitive), or undefined. */
export function findEpayScenario(id: string): EpayScenario | undefined {
  return BY_ID.get(id.trim().toUpperCase());
}

/** The scenario a `total_amount` in paisa selects, or undefined. */
export function epayScenarioOfPaisa(paisa: number): EpayScenario | undefined {
  if (paisa % 100 !== 0) return undefined;
  const n = paisa / 100 - EPAY_MAGIC_AMOUNT_BASE;
  return n > 0 ? BY_ID.get(`EPAY-${String(n).padStart(3, '0')}`) : undefined;
}

/** The magic amount (rupees) of a scenario. */
export function epayMagicAmountOf(scenario: EpayScenario): number {
  return EPAY_MAGIC_AMOUNT_BASE + Number(scenario.id.slice(5));
}
