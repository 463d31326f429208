/**
 * The catalogue of the sandbox's scenarios: data only. An ID never changes meaning once published;
 * a new behaviour gets a new ID. Every way of choosing one (a request header, a booking property, a
 * magic amount, a sticky choice per product code, the picker on the payment pages) resolves here.
 */
import type { PaymentStatus } from '../../protocol/contract.js';

/** How a scenario's callbacks differ from a plain delivery. */
export type CallbackTwist =
  /** Never sent: only the status check tells. */
  | 'lost'
  /** Sent twice. */
  | 'duplicated'
  /** Sent after the five-minute rule has passed. */
  | 'late'
  /** The first two attempts are lost on the way (recorded as network errors), the third arrives. */
  | 'dropped-twice'
  /** The later status's callback arrives first, the earlier one after it. */
  | 'reordered';

/** One scenario of the catalogue. */
export interface Scenario {
  /** `WPS-001`, ...: stable. */
  id: string;
  /** A short name, e.g. `pending-then-paid`. */
  name: string;
  /** What happens, in one sentence. */
  summary: string;
  /** Status after the shopper confirms on the page; `BOOKED` means the shopper walks away. */
  confirm: Extract<PaymentStatus, 'SUCCESS' | 'FAILED' | 'CANCELED' | 'PENDING' | 'BOOKED'>;
  /** A later change on the sandbox's clock, counted from the confirm. */
  then?: { afterMs: number; status: Extract<PaymentStatus, 'SUCCESS' | 'FAILED' | 'REVERTED'> };
  callback?: CallbackTwist;
  /** The booking's lifetime when it is not paid (instead of the sandbox's TTL). */
  ttlMs?: number;
  /** The merchant's cancel of the pending payment is answered IP-210, and the payment lands anyway this long after. */
  paidAfterCancelMs?: number;
  /** Every API answer about this booking (the book included) waits this long, in real time. */
  slowMs?: number;
  /** From the confirm, the whole service is down this long (sandbox clock): every API call, about any booking, gets a bare 503; the callback waits for the end. */
  downMs?: number;
}

const MINUTE = 60_000;

/** Every scenario, in ID order. */
export const SCENARIOS: readonly Scenario[] = [
  { id: 'WPS-001', name: 'paid', summary: 'The shopper pays: SUCCESS and its callback.', confirm: 'SUCCESS' },
  { id: 'WPS-002', name: 'failed', summary: 'The payment fails (as with MPIN 0000): FAILED and its callback.', confirm: 'FAILED' },
  { id: 'WPS-003', name: 'cancelled-in-app', summary: 'The shopper cancels in the wallet app: CANCELED and its callback.', confirm: 'CANCELED' },
  {
    id: 'WPS-004',
    name: 'pending-then-paid',
    summary: 'PENDING (no callback), then SUCCESS 2 min later with its callback.',
    confirm: 'PENDING',
    then: { afterMs: 2 * MINUTE, status: 'SUCCESS' },
  },
  {
    id: 'WPS-005',
    name: 'pending-then-failed',
    summary: 'PENDING (no callback), then FAILED 2 min later with its callback.',
    confirm: 'PENDING',
    then: { afterMs: 2 * MINUTE, status: 'FAILED' },
  },
  {
    id: 'WPS-006',
    name: 'paid-after-merchant-cancel',
    summary: 'PENDING; the merchant\'s cancel answers IP-210, yet the payment lands 30 s later: SUCCESS and its callback.',
    confirm: 'PENDING',
    then: { afterMs: MINUTE / 2, status: 'SUCCESS' },
    paidAfterCancelMs: MINUTE / 2,
  },
  { id: 'WPS-007', name: 'callback-lost', summary: 'SUCCESS, but no callback ever arrives: only the status check tells.', confirm: 'SUCCESS', callback: 'lost' },
  { id: 'WPS-008', name: 'callback-duplicated', summary: 'SUCCESS, and its callback is delivered twice.', confirm: 'SUCCESS', callback: 'duplicated' },
  {
    id: 'WPS-009',
    name: 'callbacks-reordered',
    summary: 'SUCCESS, REVERTED 1 min later; the REVERTED callback arrives first, the SUCCESS one 10 s after.',
    confirm: 'SUCCESS',
    then: { afterMs: MINUTE, status: 'REVERTED' },
    callback: 'reordered',
  },
  { id: 'WPS-010', name: 'callback-late', summary: 'SUCCESS; its callback arrives 6 min later, past the five-minute rule.', confirm: 'SUCCESS', callback: 'late' },
  {
    id: 'WPS-011',
    name: 'paid-then-reverted',
    summary: 'SUCCESS, then REVERTED 10 min later, each with its callback.',
    confirm: 'SUCCESS',
    then: { afterMs: 10 * MINUTE, status: 'REVERTED' },
  },
  {
    id: 'WPS-012',
    name: 'expired-unpaid',
    summary: 'The shopper walks away: BOOKED, then expired (CANCELED) 1 min after booking; no callback.',
    confirm: 'BOOKED',
    ttlMs: MINUTE,
  },
  { id: 'WPS-013', name: 'service-slow', summary: 'SUCCESS; every API answer about the booking (the book too) takes 3 s.', confirm: 'SUCCESS', slowMs: 3000 },
  {
    id: 'WPS-014',
    name: 'service-down',
    summary: 'SUCCESS; then the whole service is down for 60 s (every API call gets a bare 503); the callback comes after.',
    confirm: 'SUCCESS',
    downMs: MINUTE,
  },
  { id: 'WPS-015', name: 'callback-dropped-twice', summary: 'SUCCESS; the callback\'s first two attempts are lost on the network, the third arrives.', confirm: 'SUCCESS', callback: 'dropped-twice' },
  { id: 'WPS-016', name: 'pending-forever', summary: 'PENDING for ever, no callback; the merchant may cancel it.', confirm: 'PENDING' },
];

const BY_ID = new Map(SCENARIOS.map((scenario) => [scenario.id, scenario]));

/** The magic amounts: `9000 + n` selects `WPS-00n` (9001 is WPS-001, ..., 9016 is WPS-016). */
export const MAGIC_AMOUNT_BASE = 9000;

/** A scenario by its ID (case-insensitive), or undefined. */
export function findScenario(id: string): Scenario | undefined {
  return BY_ID.get(id.trim().toUpperCase());
}

/** The scenario a magic amount selects, or undefined. */
export function scenarioOfAmount(amount: number): Scenario | undefined {
  const n = amount - MAGIC_AMOUNT_BASE;
  return Number.isInteger(n) && n > 0 ? BY_ID.get(`WPS-${String(n).padStart(3, '0')}`) : undefined;
}

/** The magic amount of a scenario. */
export function magicAmountOf(scenario: Scenario): number {
  return MAGIC_AMOUNT_BASE + Number(scenario.id.slice(4));
}

/** Thrown for a scenario ID the catalogue does not have; the message lists the known ones. */
export class UnknownScenarioError extends Error {
  override name = 'UnknownScenarioError';
  constructor(id: string, where: string) {
    super(`${where}: no scenario "${id}"; known: ${SCENARIOS[0]!.id} to ${SCENARIOS.at(-1)!.id} (\`wallet-pay-sandbox scenarios\` lists them).`);
  }
}

/** The scenario an ID names, or an {@link UnknownScenarioError} saying where the ID came from. */
export function requireScenario(id: string, where: string): Scenario {
  const scenario = findScenario(id);
  if (!scenario) throw new UnknownScenarioError(id, where);
  return scenario;
}
