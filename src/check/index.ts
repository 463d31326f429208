/**
 * `wallet-pay-button/check`: the conformance checker of the book proxy contract, for any server in any
 * language. `runCheck` starts the sandbox of the payment service, runs every clause of `CLAUSES`
 * against the proxy and returns the verdicts; `npx wallet-pay-check` is its command line.
 *
 * ```ts
 * const report = await runCheck({ endpoint: 'http://127.0.0.1:8081/api/pay', sandboxPort: 4020, orderPrefix: 'CHK-', amount: 1000, reconcile: 'php proxy.php reconcile' });
 * report.failed; // 0 when the proxy keeps the contract
 * ```
 */
export { runCheck, type CheckOptions, type CheckReport, type ClauseResult } from './run.js';
export { CLAUSES, type ClauseId } from './clauses.js';
