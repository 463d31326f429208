/**
 * The checker's clauses of a backend in its ePay v2 mode (`provider: 'epay'`), declared in the order
 * they run; src/check/clauses.ts lists them after the intent service's in `CLAUSES`.
 */
import type { Clause } from '../clauses.js';
import { SECTIONS } from '../sections.js';

/** Its clauses, in the order they run. */
export const EPAY_CLAUSES = [
  { id: 'epay-book', title: '(ePay) book "web" and "app" answer eSewa\'s eleven signed form fields, total_amount their sum', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-return-forged-refused', title: '(ePay) a forged or altered return is refused with a 4xx and fulfils nothing', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-return-raw-text', title: '(ePay) a return verifies on its raw text: total_amount 1000.0 (a number) or "2,700.0"', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-status-decides', title: '(ePay) a signed COMPLETE return fulfils nothing before the status check says COMPLETE', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-ambiguous-open', title: '(ePay) AMBIGUOUS is not fulfilled: /status answers PENDING', section: SECTIONS.epay, provider: 'epay' },
  { id: 'epay-full-refund-reverted', title: '(ePay) FULL_REFUND is answered REVERTED and the order is unpaid again', section: SECTIONS.epay, provider: 'epay' },
] as const satisfies readonly Clause[];
