/**
 * The intent service's clause bodies against its clause list: one body for each clause it declares and
 * none for another's, each the clause function of its name; with ePay's and Khalti's and the transport
 * clauses, every clause of `CLAUSES` has exactly one body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAUSES } from '../../../../src/check/clauses.js';
import { EPAY_BODIES } from '../../../../src/check/epay/clauses.js';
import { INTENT_BODIES } from '../../../../src/check/esewa-intent/bodies.js';
import { INTENT_CLAUSES } from '../../../../src/check/esewa-intent/clause-list.js';
import { bookApp } from '../../../../src/check/esewa-intent/clauses-book.js';
import { reconcileAsksService } from '../../../../src/check/esewa-intent/clauses-replays.js';
import { KHALTI_BODIES } from '../../../../src/check/khalti/clauses.js';

test("the intent bodies are exactly its clauses', in its list's order", () => {
  assert.deepEqual(Object.keys(INTENT_BODIES), INTENT_CLAUSES.map((clause) => clause.id));
  assert.ok(INTENT_CLAUSES.every((clause) => !('provider' in clause)), 'an intent clause carries no provider mark');
  assert.equal(INTENT_BODIES['book-app'], bookApp);
  assert.equal(INTENT_BODIES['reconcile-asks-service'], reconcileAsksService);
});

test("no clause has two providers' bodies, and only the transport clauses have none of a provider", () => {
  const providers = [...Object.keys(INTENT_BODIES), ...Object.keys(EPAY_BODIES), ...Object.keys(KHALTI_BODIES)];
  assert.equal(new Set(providers).size, providers.length);
  const without = CLAUSES.filter((clause) => !providers.includes(clause.id));
  assert.ok(without.length > 0 && without.every((clause) => 'provider' in clause && clause.provider === 'any'), without.map((clause) => clause.id).join(', '));
});
