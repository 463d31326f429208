/**
 * Where the checker's rules are written (docs/backends.md, docs/contract.md): each clause names its
 * section, shared by the clauses of every provider (src/check/clauses.ts and each provider's clause-list.ts).
 */

/** Where a clause's rule is written. */
export const SECTIONS = {
  amount: 'backends.md rule 1 (the amount comes from your own order); contract.md "No price."',
  idempotency: 'backends.md rule 2 (one booking per Idempotency-Key); contract.md "One booking per attempt."',
  paid: 'backends.md rule 3 (one payable booking per order); contract.md "One payable booking per order."',
  callback: 'backends.md rule 4 (verify every callback); contract.md "Readings of the spec\'s gaps"',
  late: 'backends.md rule 4 (verify every callback: a SUCCESS after a cancel is delivered, never dropped)',
  handoff: 'backends.md "The desktop answer and the hand-off\'s return"',
  epay: 'backends.md "eSewa ePay v2"',
  khalti: 'backends.md "Khalti KPG-2"',
  status: 'backends.md rule 5 (the status comes from the service); contract.md "Both ids."',
  book: 'contract.md "Requests" (the book answer)',
  codes: 'contract.md "The codes"',
  answers: 'contract.md "Answers"',
  body: 'contract.md "The body."',
  order: 'backends.md "Is the order paid?"; contract.md "Requests" (the order answer)',
  publicUrl: 'backends.md "The check instance" (callbacks go to the proxy\'s public URL, PUBLIC_URL)',
  finality: 'backends.md rule 4 (verify every callback: a final status stays final, but for a refund)',
  reconcile: 'backends.md "Reconciliation: the five-minute rule"',
} as const;
