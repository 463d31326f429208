/**
 * The checker's clauses of a backend in its Khalti mode (`provider: 'khalti'`), declared in the order
 * they run; src/check/clauses.ts lists them after ePay's in `CLAUSES`.
 */
import type { Clause } from '../clauses.js';
import { SECTIONS } from '../sections.js';

/** Its clauses, in the order they run. */
export const KHALTI_CLAUSES = [
  { id: 'khalti-book', title: '(Khalti) book "web" and "app" initiate in paisa with the Key header; payment_url opens by GET', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-return-not-trusted', title: '(Khalti) a return saying status=Completed fulfils nothing before the lookup does', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-lookup-400-canceled', title: '(Khalti) a lookup\'s HTTP 400 (User canceled) is CANCELED, not an error', section: SECTIONS.khalti, provider: 'khalti' },
  { id: 'khalti-forged-return', title: '(Khalti) a forged return (unknown pidx, another order, a paid one canceled) changes nothing', section: SECTIONS.khalti, provider: 'khalti' },
] as const satisfies readonly Clause[];
