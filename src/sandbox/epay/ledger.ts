/**
 * The sandbox's ePay v2 transactions and their statuses, without I/O: a session per posted form, the
 * shopper's pay, fail and cancel, idle expiry and scenario refunds read against an injected clock,
 * and the admin's refunds and status changes. Expiry and a scenario's later refund are applied when a
 * transaction is read (as the intent bookings' expiry is), so moving the sandbox's clock moves them,
 * and a restarted sandbox needs no rescheduling.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { epayScenarioOfPaisa, findEpayScenario, type EpayScenario } from './scenarios.js';

/** Every status eSewa's status check answers. */
export type EpayStatus = 'PENDING' | 'COMPLETE' | 'FULL_REFUND' | 'PARTIAL_REFUND' | 'AMBIGUOUS' | 'NOT_FOUND' | 'CANCELED';

/** One change of a transaction's status. */
export interface EpayChange {
  status: EpayStatus;
  /** Epoch milliseconds on the sandbox's clock. */
  at: number;
  reason: string;
}

/** A transaction as the sandbox holds it (copies are handed out). */
export interface EpayTransaction {
  /** Names the login page's forms; not guessable from the transaction. */
  session_id: string;
  product_code: string;
  transaction_uuid: string;
  /** The eleven fields as posted. */
  form: Record<string, string>;
  total_paisa: number;
  status: EpayStatus;
  /** The login page still takes the shopper's pay, fail or cancel. */
  open: boolean;
  /** eSewa's transaction code (`transaction_code` in the success data, `ref_id` in the status check). */
  ref_id: string | null;
  created_at: number;
  /** Last use of the session; it expires `lifetime_ms` after this while PENDING. */
  touched_at: number;
  lifetime_ms: number;
  /** PENDING that never expires (a payment under way, not an abandoned session). */
  held?: boolean;
  paid_at?: number;
  refunded_paisa: number;
  scenario?: string;
  history: EpayChange[];
}

/** The outcome of a shopper's action or an admin change. */
export type EpayResult =
  | { ok: true; transaction: EpayTransaction; redirect?: 'success' | 'failure' }
  | { ok: false; reason: 'unknown' | 'closed' | 'expired' | 'unknown_scenario' | 'conflict' | 'not_refundable' | 'bad_amount' | 'bad_status'; transaction?: EpayTransaction };

/** Transactions kept: past this, a new one drops the oldest that is no longer open. */
export const MAX_EPAY_TRANSACTIONS = 10_000;

const copy = (transaction: EpayTransaction): EpayTransaction => structuredClone(transaction);
const keyOf = (productCode: string, uuid: string) => `${productCode}\u0000${uuid}`;

/** Seven upper-case letters and digits, like eSewa's `000AWEO`. */
function transactionCode(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return [...randomBytes(7)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

/** The ledger of ePay transactions. */
export class EpayLedger {
  private readonly byKey = new Map<string, EpayTransaction>();
  private readonly bySession = new Map<string, EpayTransaction>();

  constructor(
    private readonly options: {
      now: () => number;
      /** Idle lifetime of an unfinished session (eSewa's SDK pages: 5 minutes). */
      idleMs: number;
      /** Called after every change (the state file is written then). */
      onChange?: () => void;
    },
  ) {}

  /**
   * A checked form: a new session, the open one of the same content again, or a refusal when the
   * `transaction_uuid` was posted before with other content or is finished (eSewa wants it unique).
   */
  post(form: Record<string, string>, totalPaisa: number): EpayResult {
    const productCode = form['product_code']!;
    const uuid = form['transaction_uuid']!;
    const existing = this.live(keyOf(productCode, uuid));
    if (existing) {
      const same = Object.keys(form).every((name) => name === 'signature' || existing.form[name] === form[name]);
      if (!same) return { ok: false, reason: 'conflict', transaction: copy(existing) };
      if (!existing.open) return { ok: false, reason: 'closed', transaction: copy(existing) };
      this.touch(existing);
      return { ok: true, transaction: copy(existing) };
    }
    const now = this.options.now();
    const scenario = epayScenarioOfPaisa(totalPaisa);
    const transaction: EpayTransaction = {
      session_id: `ES-${randomUUID()}`,
      product_code: productCode,
      transaction_uuid: uuid,
      form: { ...form },
      total_paisa: totalPaisa,
      status: 'PENDING',
      open: true,
      ref_id: null,
      created_at: now,
      touched_at: now,
      lifetime_ms: scenario?.lifetimeMs ?? this.options.idleMs,
      refunded_paisa: 0,
      history: [{ status: 'PENDING', at: now, reason: 'form_posted' }],
      ...(scenario ? { scenario: scenario.id } : {}),
    };
    this.byKey.set(keyOf(productCode, uuid), transaction);
    this.bySession.set(transaction.session_id, transaction);
    if (this.byKey.size > MAX_EPAY_TRANSACTIONS) this.dropOldestClosed();
    this.options.onChange?.();
    return { ok: true, transaction: copy(transaction) };
  }

  /** The open session of a login page, touched (its idle time starts again). */
  openSession(sessionId: string): EpayResult {
    const transaction = this.liveSession(sessionId);
    if (!transaction) return { ok: false, reason: 'unknown' };
    if (!transaction.open) return { ok: false, reason: transaction.status === 'NOT_FOUND' ? 'expired' : 'closed', transaction: copy(transaction) };
    this.touch(transaction);
    return { ok: true, transaction: copy(transaction) };
  }

  /** The shopper pays (logged in); the transaction's scenario, or `picked`, decides the outcome. */
  pay(sessionId: string, picked?: string): EpayResult {
    const opened = this.openSession(sessionId);
    if (!opened.ok) return opened;
    const transaction = this.bySession.get(sessionId)!;
    const pickedScenario = picked ? findEpayScenario(picked) : undefined;
    if (picked && !pickedScenario) return { ok: false, reason: 'unknown_scenario', transaction: copy(transaction) };
    if (pickedScenario) {
      transaction.scenario = pickedScenario.id;
      transaction.lifetime_ms = pickedScenario.lifetimeMs ?? this.options.idleMs;
    }
    const scenario: EpayScenario | undefined = transaction.scenario ? findEpayScenario(transaction.scenario) : undefined;
    const outcome = scenario?.outcome ?? 'COMPLETE';
    transaction.open = false;
    if (scenario?.held) transaction.held = true;
    if (outcome === 'COMPLETE' || outcome === 'AMBIGUOUS') transaction.ref_id = transactionCode();
    if (outcome === 'COMPLETE') transaction.paid_at = this.options.now();
    this.change(transaction, outcome, `paid${scenario ? ` (${scenario.id})` : ''}`);
    return { ok: true, transaction: copy(transaction), redirect: outcome === 'COMPLETE' ? 'success' : 'failure' };
  }

  /**
   * The shopper's failed payment or cancel: both go to `failure_url`. A failure reads `NOT_FOUND`
   * (the session ended at eSewa with no payment) and a cancel `CANCELED` without a `ref_id`: eSewa
   * documents neither case, so this is our reading of its table.
   */
  end(sessionId: string, how: 'fail' | 'cancel'): EpayResult {
    const opened = this.openSession(sessionId);
    if (!opened.ok) return opened;
    const transaction = this.bySession.get(sessionId)!;
    transaction.open = false;
    this.change(transaction, how === 'fail' ? 'NOT_FOUND' : 'CANCELED', how === 'fail' ? 'failed_by_shopper' : 'cancelled_by_shopper');
    return { ok: true, transaction: copy(transaction), redirect: 'failure' };
  }

  /** The transaction of a product code and uuid, with expiry and scenario refunds applied. */
  lookup(productCode: string, uuid: string): EpayTransaction | undefined {
    const transaction = this.live(keyOf(productCode, uuid));
    return transaction && copy(transaction);
  }

  /**
   * An admin refund of a paid transaction: the whole remainder (`FULL_REFUND`) when `paisa` is
   * absent or covers it, else `PARTIAL_REFUND`; a partly refunded one can be refunded further.
   */
  refund(productCode: string, uuid: string, paisa?: number): EpayResult {
    const transaction = this.live(keyOf(productCode, uuid));
    if (!transaction) return { ok: false, reason: 'unknown' };
    if (transaction.status !== 'COMPLETE' && transaction.status !== 'PARTIAL_REFUND') return { ok: false, reason: 'not_refundable', transaction: copy(transaction) };
    const remaining = transaction.total_paisa - transaction.refunded_paisa;
    if (paisa !== undefined && !(Number.isSafeInteger(paisa) && paisa > 0 && paisa <= remaining)) return { ok: false, reason: 'bad_amount', transaction: copy(transaction) };
    this.applyRefund(transaction, paisa ?? remaining, 'refunded_by_admin');
    return { ok: true, transaction: copy(transaction) };
  }

  /** An admin change to `AMBIGUOUS` or `CANCELED` (eSewa halting or reversing a payment); closes the session. */
  setStatus(productCode: string, uuid: string, status: string): EpayResult {
    const transaction = this.live(keyOf(productCode, uuid));
    if (!transaction) return { ok: false, reason: 'unknown' };
    if (status !== 'AMBIGUOUS' && status !== 'CANCELED') return { ok: false, reason: 'bad_status', transaction: copy(transaction) };
    if (transaction.status === 'NOT_FOUND') return { ok: false, reason: 'closed', transaction: copy(transaction) };
    transaction.open = false;
    transaction.ref_id ??= transactionCode();
    this.change(transaction, status, 'set_by_admin');
    return { ok: true, transaction: copy(transaction) };
  }

  /** Copies of every transaction, oldest first, with expiry applied. */
  list(): EpayTransaction[] {
    return [...this.byKey.keys()].map((key) => copy(this.live(key)!));
  }

  /** Every transaction as held (for the state file). */
  snapshot(): EpayTransaction[] {
    return [...this.byKey.values()].map(copy);
  }

  /** Takes back transactions from a {@link snapshot}. */
  restore(transactions: readonly EpayTransaction[]): void {
    for (const saved of transactions) {
      const transaction = copy(saved);
      this.byKey.set(keyOf(transaction.product_code, transaction.transaction_uuid), transaction);
      this.bySession.set(transaction.session_id, transaction);
    }
  }

  private liveSession(sessionId: string): EpayTransaction | undefined {
    const transaction = this.bySession.get(sessionId);
    return transaction && this.live(keyOf(transaction.product_code, transaction.transaction_uuid));
  }

  private live(key: string): EpayTransaction | undefined {
    const transaction = this.byKey.get(key);
    if (!transaction) return undefined;
    const now = this.options.now();
    const expiresAt = transaction.touched_at + transaction.lifetime_ms;
    if (transaction.status === 'PENDING' && !transaction.held && now >= expiresAt) {
      transaction.open = false;
      this.change(transaction, 'NOT_FOUND', 'expired', expiresAt);
    }
    const then = transaction.scenario ? findEpayScenario(transaction.scenario)?.then : undefined;
    if (then && transaction.status === 'COMPLETE' && transaction.paid_at !== undefined && now >= transaction.paid_at + then.afterMs) {
      const whole = transaction.total_paisa - transaction.refunded_paisa;
      const part = Math.max(1, Math.floor(transaction.total_paisa / 2));
      this.applyRefund(transaction, then.status === 'FULL_REFUND' ? whole : part, `refunded (${transaction.scenario})`, transaction.paid_at + then.afterMs);
    }
    return transaction;
  }

  private applyRefund(transaction: EpayTransaction, paisa: number, reason: string, at?: number): void {
    transaction.refunded_paisa += paisa;
    const full = transaction.refunded_paisa >= transaction.total_paisa;
    this.change(transaction, full ? 'FULL_REFUND' : 'PARTIAL_REFUND', `${reason}: ${paisa} paisa`, at);
  }

  private touch(transaction: EpayTransaction): void {
    transaction.touched_at = this.options.now();
    this.options.onChange?.();
  }

  private change(transaction: EpayTransaction, status: EpayStatus, reason: string, at = this.options.now()): void {
    transaction.status = status;
    transaction.history.push({ status, at, reason });
    this.options.onChange?.();
  }

  private dropOldestClosed(): void {
    for (const [key, transaction] of this.byKey) {
      if (!transaction.open) {
        this.byKey.delete(key);
        this.bySession.delete(transaction.session_id);
        return;
      }
    }
  }
}
