/**
 * The Khalti emulation's payments and their rules, on the sandbox's clock: initiate, lookup, the
 * shopper's pay or cancel on the pay page, refunds. Times are read lazily: a link past `expires_at`
 * reads as `Expired`, a scenario's later status as reached, whenever the clock says so (so moving the
 * clock is enough). Kept in memory only: the state file does not hold them.
 */
import { randomBytes } from 'node:crypto';
import { findKhaltiScenario, KHALTI_SCENARIOS, khaltiScenarioOfAmount, type KhaltiScenario } from './scenarios.js';
import { validateInitiate, type FieldErrors, type InitiateFields } from './validate.js';

/** One payment, keyed on its `pidx`. */
export interface KhaltiPayment extends InitiateFields {
  pidx: string;
  /** Epoch milliseconds, sandbox clock. */
  created_at: number;
  expires_at: number;
  expires_in: number;
  status: string;
  transaction_id: string | null;
  /** The payer's Khalti ID, unmasked (the return masks it). */
  khalti_id: string | null;
  /** Paisa refunded so far. */
  refunded_paisa: number;
  scenario?: string;
  /** A scenario's later status and when it lands. */
  then?: { at: number; status: string };
}

/** Khalti IDs the pay page accepts: the published test IDs 9800000000 to 9800000005. */
export const TEST_KHALTI_IDS = ['9800000000', '9800000001', '9800000002', '9800000003', '9800000004', '9800000005'] as const;
/** The published test MPIN and OTP. */
export const TEST_MPIN = '1111';
export const TEST_OTP = '987654';

/** Statuses lookup answers with HTTP 400 (the docs' table). */
export const LOOKUP_400 = ['Expired', 'User canceled'];

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A 22-character id like Khalti's `pidx` and transaction ids. */
function newId(): string {
  return [...randomBytes(22)].map((byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** Epoch milliseconds as Khalti writes `expires_at`: Nepal time (+05:45), microseconds. */
export function nepalTime(ms: number): string {
  const shifted = new Date(ms + (5 * 60 + 45) * 60_000).toISOString();
  return `${shifted.slice(0, 23)}000+05:45`;
}

/** `9800000004` as the return shows it: `98XXXXX004`. */
export function maskKhaltiId(id: string): string {
  return id.length < 6 ? id : `${id.slice(0, 2)}${'X'.repeat(id.length - 5)}${id.slice(-3)}`;
}

/** An answer for the HTTP layer: status and JSON body. */
export interface KhaltiAnswer {
  http: number;
  body: Record<string, unknown>;
}

/** What the shopper's action on the pay page led to. */
export type PageOutcome =
  | { ok: true; payment: KhaltiPayment }
  | { ok: false; reason: 'unknown' | 'closed' | 'credentials' | 'scenario'; payment?: KhaltiPayment };

const invalid = (errors: FieldErrors): KhaltiAnswer => ({ http: 400, body: { ...errors, error_key: 'validation_error' } });
const notFound = (): KhaltiAnswer => ({ http: 404, body: { detail: 'Not found.', error_key: 'validation_error' } });

/** The payments of one sandbox. */
export class KhaltiPayments {
  private readonly payments = new Map<string, KhaltiPayment>();
  private readonly byTransaction = new Map<string, string>();

  constructor(
    private readonly options: {
      now: () => number;
      /** Seconds a link lives (Khalti's sample: 1800). */
      expiresIn: number;
      /** `payment_url` of a pidx. */
      payUrl: (pidx: string) => string;
    },
  ) {}

  /** `POST epayment/initiate/`: a new `pidx` for every valid body (Khalti keys nothing on `purchase_order_id`). */
  initiate(body: unknown, headerScenario?: string): KhaltiAnswer & { payment?: KhaltiPayment } {
    const checked = validateInitiate(body);
    if (!checked.ok) return invalid(checked.errors);
    const fields = checked.fields;
    const named = headerScenario ?? (typeof fields.extras['merchant_scenario'] === 'string' ? (fields.extras['merchant_scenario'] as string) : undefined);
    let scenario: KhaltiScenario | undefined;
    if (named !== undefined) {
      scenario = findKhaltiScenario(named);
      const where = headerScenario !== undefined ? 'Wallet-Pay-Scenario' : 'merchant_scenario';
      if (!scenario) return invalid({ [where]: [`No scenario "${named}"; known: ${KHALTI_SCENARIOS[0]!.id} to ${KHALTI_SCENARIOS.at(-1)!.id}.`] });
    } else scenario = khaltiScenarioOfAmount(fields.amount);
    const now = this.options.now();
    const expiresIn = scenario?.expiresInS ?? this.options.expiresIn;
    const payment: KhaltiPayment = {
      ...fields,
      pidx: newId(),
      created_at: now,
      expires_at: now + expiresIn * 1000,
      expires_in: expiresIn,
      status: 'Initiated',
      transaction_id: null,
      khalti_id: null,
      refunded_paisa: 0,
      ...(scenario ? { scenario: scenario.id } : {}),
    };
    this.payments.set(payment.pidx, payment);
    return {
      http: 200,
      body: { pidx: payment.pidx, payment_url: this.options.payUrl(payment.pidx), expires_at: nepalTime(payment.expires_at), expires_in: expiresIn },
      payment: { ...payment },
    };
  }

  /** `POST epayment/lookup/`: every status with its HTTP code (400 for `Expired` and `User canceled`). */
  lookup(body: unknown): KhaltiAnswer {
    const pidx = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['pidx'] : undefined;
    if (pidx === undefined || pidx === null) return invalid({ pidx: ['This field is required.'] });
    if (typeof pidx !== 'string' || pidx.trim() === '') return invalid({ pidx: ['This field may not be blank.'] });
    const payment = this.current(pidx);
    if (!payment) return notFound();
    return {
      http: LOOKUP_400.includes(payment.status) ? 400 : 200,
      body: {
        pidx: payment.pidx,
        total_amount: payment.amount,
        status: payment.status,
        transaction_id: payment.transaction_id,
        fee: 0,
        // The docs show `refunded: true` only beside `Refunded`; a partial refund leaves it false here.
        refunded: payment.status === 'Refunded',
      },
    };
  }

  /** A copy of one payment, with the clock applied. */
  get(pidx: string): KhaltiPayment | undefined {
    const payment = this.current(pidx);
    return payment ? { ...payment } : undefined;
  }

  /** The shopper pays on the page with a test Khalti ID, MPIN and OTP; a scenario may be picked there. */
  pay(pidx: string, form: { khaltiId: string; mpin: string; otp: string; scenario?: string }): PageOutcome {
    const payment = this.current(pidx);
    if (!payment) return { ok: false, reason: 'unknown' };
    if (payment.status !== 'Initiated') return { ok: false, reason: 'closed', payment: { ...payment } };
    const picked = form.scenario ? findKhaltiScenario(form.scenario) : undefined;
    if (form.scenario && !picked) return { ok: false, reason: 'scenario', payment: { ...payment } };
    if (!(TEST_KHALTI_IDS as readonly string[]).includes(form.khaltiId.trim()) || form.mpin !== TEST_MPIN || form.otp.trim() !== TEST_OTP) {
      return { ok: false, reason: 'credentials', payment: { ...payment } };
    }
    if (picked) payment.scenario = picked.id;
    const scenario = payment.scenario ? findKhaltiScenario(payment.scenario) : undefined;
    const outcome = scenario?.pay ?? 'Completed';
    payment.status = outcome;
    if (outcome !== 'User canceled') {
      payment.khalti_id = form.khaltiId.trim();
      payment.transaction_id = newId();
      this.byTransaction.set(payment.transaction_id, payment.pidx);
    }
    if (scenario?.then) payment.then = { at: this.options.now() + scenario.then.afterMs, status: scenario.then.status };
    return { ok: true, payment: { ...payment } };
  }

  /** The shopper cancels on the page: `User canceled`. */
  cancel(pidx: string): PageOutcome {
    const payment = this.current(pidx);
    if (!payment) return { ok: false, reason: 'unknown' };
    if (payment.status !== 'Initiated') return { ok: false, reason: 'closed', payment: { ...payment } };
    payment.status = 'User canceled';
    return { ok: true, payment: { ...payment } };
  }

  /**
   * `POST /api/merchant-transaction/{transaction_id}/refund/` of a wallet payment: no amount refunds
   * what is left, `amount` (paisa) part of it. Khalti documents no refusal bodies; these are the
   * sandbox's, in Khalti's `{detail, error_key}` shape.
   */
  refund(transactionId: string, body: unknown): KhaltiAnswer {
    const pidx = this.byTransaction.get(transactionId);
    const payment = pidx === undefined ? undefined : this.current(pidx);
    if (!payment) return notFound();
    if (payment.status !== 'Completed' && payment.status !== 'Partially Refunded') {
      return { http: 400, body: { detail: `Only a Completed payment can be refunded; this one is ${payment.status}.`, error_key: 'validation_error' } };
    }
    const left = payment.amount - payment.refunded_paisa;
    const raw = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['amount'] : undefined;
    let amount = left;
    if (raw !== undefined && raw !== null && raw !== '') {
      const asked = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : NaN;
      if (!Number.isSafeInteger(asked) || asked <= 0) return invalid({ amount: ['A valid integer is required.'] });
      if (asked > left) return invalid({ amount: [`Only ${left} paisa of this payment are left to refund.`] });
      amount = asked;
    }
    // A refund made here replaces the scenario's later one from the dashboard.
    delete payment.then;
    payment.refunded_paisa += amount;
    payment.status = payment.refunded_paisa === payment.amount ? 'Refunded' : 'Partially Refunded';
    return { http: 200, body: { detail: 'Transaction refund successful.' } };
  }

  /** The live record with the clock applied: expiry first, then a scenario's later status. */
  private current(pidx: string): KhaltiPayment | undefined {
    const payment = this.payments.get(pidx);
    if (!payment) return undefined;
    const now = this.options.now();
    if (payment.status === 'Initiated' && now >= payment.expires_at) payment.status = 'Expired';
    if (payment.then && now >= payment.then.at) {
      payment.status = payment.then.status;
      if (payment.status === 'Refunded') payment.refunded_paisa = payment.amount;
      if (payment.status === 'Partially Refunded') payment.refunded_paisa = Math.floor(payment.amount / 2);
      delete payment.then;
    }
    return payment;
  }
}
