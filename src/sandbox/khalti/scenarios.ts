/**
 * The Khalti emulation's scenarios: data only, IDs `KHALTI-001` ... that never change meaning. They
 * live apart from the `WPS-…` catalogue (a different API with different statuses), and are chosen
 * by rules that cannot select a `WPS-…` one by accident: the `Wallet-Pay-Scenario` header on the
 * initiate, the initiate's `merchant_scenario` field (Khalti keeps any `merchant_*` key as metadata),
 * a magic amount of `8000 + n` paisa (8001 is KHALTI-001; the `WPS-…` magic amounts are 9001 ...),
 * or the picker on the pay page.
 */

/** The statuses the shopper's pay can lead to at once. */
export type KhaltiPayOutcome = 'Completed' | 'Pending' | 'User canceled';

/** One scenario. */
export interface KhaltiScenario {
  /** `KHALTI-001`, ...: stable. */
  id: string;
  name: string;
  summary: string;
  /** What lookup says once the shopper pays on the page (with the right credentials). */
  pay: KhaltiPayOutcome;
  /** A later change on the sandbox's clock, counted from the pay. */
  then?: { afterMs: number; status: 'Completed' | 'Failed' | 'Refunded' | 'Partially Refunded' };
  /** The link's lifetime in seconds, instead of the sandbox's `expires_in`. */
  expiresInS?: number;
}

const MINUTE = 60_000;

/** Every Khalti scenario, in ID order. */
export const KHALTI_SCENARIOS: readonly KhaltiScenario[] = [
  { id: 'KHALTI-001', name: 'paid', summary: 'The shopper pays: Completed.', pay: 'Completed' },
  { id: 'KHALTI-002', name: 'pending-forever', summary: 'The return says Pending and lookup stays Pending.', pay: 'Pending' },
  { id: 'KHALTI-003', name: 'pending-then-paid', summary: 'Pending, then Completed 2 min later.', pay: 'Pending', then: { afterMs: 2 * MINUTE, status: 'Completed' } },
  { id: 'KHALTI-004', name: 'pending-then-failed', summary: 'Pending, then Failed 2 min later.', pay: 'Pending', then: { afterMs: 2 * MINUTE, status: 'Failed' } },
  { id: 'KHALTI-005', name: 'user-canceled', summary: 'The pay ends as User canceled (lookup answers HTTP 400).', pay: 'User canceled' },
  { id: 'KHALTI-006', name: 'expired-unpaid', summary: 'The link lives 60 s (expires_in 60); unpaid, lookup then says Expired (HTTP 400).', pay: 'Completed', expiresInS: 60 },
  { id: 'KHALTI-007', name: 'paid-then-refunded', summary: 'Completed, then Refunded from the dashboard 10 min later.', pay: 'Completed', then: { afterMs: 10 * MINUTE, status: 'Refunded' } },
  {
    id: 'KHALTI-008',
    name: 'paid-then-partially-refunded',
    summary: 'Completed, then half refunded from the dashboard 10 min later: Partially Refunded.',
    pay: 'Completed',
    then: { afterMs: 10 * MINUTE, status: 'Partially Refunded' },
  },
];

/** `8000 + n` paisa selects `KHALTI-00n`. */
export const KHALTI_MAGIC_PAISA_BASE = 8000;

/** A Khalti scenario by ID (case-insensitive), or undefined. */
export function findKhaltiScenario(id: string): KhaltiScenario | undefined {
  const wanted = id.trim().toUpperCase();
  return KHALTI_SCENARIOS.find((scenario) => scenario.id === wanted);
}

/** The scenario a magic amount (paisa) selects, or undefined. */
export function khaltiScenarioOfAmount(paisa: number): KhaltiScenario | undefined {
  const n = paisa - KHALTI_MAGIC_PAISA_BASE;
  return n > 0 && n < 1000 ? findKhaltiScenario(`KHALTI-${String(n).padStart(3, '0')}`) : undefined;
}
