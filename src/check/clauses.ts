/**
 * The conformance checker's clauses, declared once: the runner, the command's output, the OpenAPI
 * document's rules and docs/backends.md all follow this list (a test compares them).
 */
import { EPAY_CLAUSES } from './epay/clause-list.js';
import { INTENT_CLAUSES } from './esewa-intent/clause-list.js';
import { KHALTI_CLAUSES } from './khalti/clause-list.js';
import { SECTIONS } from './sections.js';

/** One rule the checker proves from outside. */
export interface Clause {
  /** Stable id, printed first on the clause's line. */
  id: string;
  /** What must hold, in one sentence. */
  title: string;
  /** Where the rule is written; named when the clause fails. */
  section: string;
  /** Which backends it proves: the intent service's (no mark), ePay v2's (`epay`), Khalti's (`khalti`), or all (`any`). */
  provider?: 'epay' | 'khalti' | 'any';
}

/** Every clause, in the order they run: each provider's (from its folder's clause-list.ts), then the transport's. */
export const CLAUSES = [
  ...INTENT_CLAUSES,
  ...EPAY_CLAUSES,
  ...KHALTI_CLAUSES,
  { id: 'method-not-allowed', title: 'a method other than POST is 405 with Allow: POST', section: SECTIONS.answers, provider: 'any' },
  { id: 'payload-too-large', title: 'a body of 1 MiB is IP-413', section: SECTIONS.body, provider: 'any' },
  { id: 'unsupported-media-type', title: 'a body that is not application/json is IP-415', section: SECTIONS.body, provider: 'any' },
  { id: 'failure-not-2xx', title: 'a failure is never answered 2xx, and a 2xx is always a success envelope', section: SECTIONS.answers, provider: 'any' },
  { id: 'no-redirect', title: 'no answer is a redirect', section: SECTIONS.answers, provider: 'any' },
  { id: 'content-type-json', title: 'every answer is Content-Type: application/json; charset=utf-8', section: SECTIONS.answers, provider: 'any' },
  { id: 'no-store', title: 'every answer carries Cache-Control: no-store', section: SECTIONS.answers, provider: 'any' },
  { id: 'nosniff', title: 'every answer carries X-Content-Type-Options: nosniff', section: SECTIONS.answers, provider: 'any' },
] as const satisfies readonly Clause[];

/** The id of one clause. */
export type ClauseId = (typeof CLAUSES)[number]['id'];

/** The clauses a run proves: the intent service's backend (the default), or one in its ePay v2 or Khalti mode. */
export function clausesFor(provider: 'intent' | 'epay' | 'khalti' = 'intent'): readonly Clause[] {
  return CLAUSES.filter((clause: Clause) => (clause.provider ?? 'intent') === provider || clause.provider === 'any');
}
