/** The checker's options and verdicts, apart from the run so the steps and clauses can name them. */
import type { ClauseId } from './clauses.js';

/** Options of {@link runCheck}. */
export interface CheckOptions {
  /** The proxy's base URL: the checker POSTs to `${endpoint}/book`, `/status`, `/cancel`, `/order`. */
  endpoint: string;
  /** Port the sandbox listens on; the proxy's service URL is `http://127.0.0.1:<port>`. */
  sandboxPort: number;
  /** Every order whose `id` starts with this is payable at the proxy, for `amount`. */
  orderPrefix: string;
  /** The amount the proxy charges for such an order. */
  amount: number;
  /** Port of the sandbox's links origin (the wallet page); default a free port. */
  linksPort?: number;
  /** Told each clause's result as soon as it is known. */
  onClause?(result: ClauseResult): void;
  /** Longest time one clause may take; default 60 s. */
  clauseTimeoutMs?: number;
  /** Longest time one request to the proxy may take, its answer read; default 10 s. */
  requestTimeoutMs?: number;
  /**
   * Origins besides `endpoint`'s the checker may send callbacks to (a proxy behind another public
   * address). A callback URL on any other origin gets none: the clauses that need one are skipped.
   */
  callbackOrigins?: string[];
  /**
   * The proxy's reconciliation, run once by the `reconcile-asks-service` clause: a shell command (run
   * with a 60 s limit) or a function. Required: `false` says the backend has none (`--no-reconcile`),
   * which skips that clause and warns in the report, as payments whose shopper never came back then
   * stay unsettled.
   */
  reconcile: string | (() => Promise<unknown>) | false;
  /**
   * The backend's provider: the intent service (`intent`, the default), eSewa's web checkout, ePay v2
   * (`epay`: the backend's form and status URLs point at the sandbox, product code EPAYTEST and its
   * published secret), or Khalti's, KPG-2 (`khalti`: the backend's KHALTI_BASE_URL is the sandbox, its
   * secret key the sandbox's access key); each runs its own clauses and the transport ones.
   */
  provider?: 'intent' | 'epay' | 'khalti';
}

/** The verdict on one clause. */
export interface ClauseResult {
  id: ClauseId;
  title: string;
  ok: boolean;
  /** True when the clause could not be run (it is not ok, and not counted as failed); `detail` says why. */
  skipped?: boolean;
  /** For a failure: what was sent, what came back, and the section the proxy breaks. Else a short note. */
  detail: string;
  /**
   * The sandbox scenarios (`WPS-001`, ...) the clause drove, in order, when it drove any: the IDs of
   * `wallet-pay-sandbox scenarios`, which the sandbox's log lines name too.
   */
  scenarios?: string[];
}

/** The whole run. */
export interface CheckReport {
  clauses: ClauseResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** What the checker warns about: an endpoint that looks like production, a backend without reconciliation. */
  warnings: string[];
}

/** What the steps of a clause read: the run's options, where a clause that runs no reconciliation needs none. */
export type StepOptions = Omit<CheckOptions, 'reconcile'> & Partial<Pick<CheckOptions, 'reconcile'>>;
