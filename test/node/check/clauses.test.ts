/** The clause list: declared once, each clause in exactly the runs its provider mark says. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CLAUSES, clausesFor, type Clause } from '../../../src/check/clauses.js';

const ids = (clauses: readonly Clause[]) => clauses.map((clause) => clause.id);

test('every clause has a unique id, a title and the section it proves', () => {
  assert.equal(new Set(ids(CLAUSES)).size, CLAUSES.length);
  for (const clause of CLAUSES as readonly Clause[]) {
    assert.match(clause.id, /^[a-z0-9]+(-[a-z0-9]+)*$/, clause.id);
    assert.ok(clause.title.length > 10, clause.id);
    assert.match(clause.section, /(backends|contract)\.md /, clause.id);
  }
});

test('an intent run takes the unmarked and "any" clauses, an ePay run the "epay" and "any" ones, in the declared order', () => {
  const all = CLAUSES as readonly Clause[];
  const intent = clausesFor('intent');
  const epay = clausesFor('epay');
  assert.deepEqual(ids(clausesFor()), ids(intent), 'intent is the default');
  assert.deepEqual(ids(intent), ids(all.filter((c) => c.provider === undefined || c.provider === 'any')));
  assert.deepEqual(ids(epay), ids(all.filter((c) => c.provider === 'epay' || c.provider === 'any')));
  const any = ids(all.filter((c) => c.provider === 'any'));
  assert.ok(any.length > 0 && any.every((id) => ids(intent).includes(id) && ids(epay).includes(id)), 'the transport clauses run in both');
  assert.ok(ids(epay).every((id) => id.startsWith('epay-') || any.includes(id)), 'an ePay run proves no intent-only clause');
  assert.ok(!ids(intent).some((id) => id.startsWith('epay-')), 'an intent run proves no ePay clause');
  assert.deepEqual([...ids(intent), ...ids(epay)].filter((id, i, list) => list.indexOf(id) !== i).sort(), [...any].sort(), 'only the "any" clauses are in both');
});

test('a Khalti run takes its four "khalti" clauses and the "any" ones, and no other run takes a Khalti clause', () => {
  const all = CLAUSES as readonly Clause[];
  const khalti = ids(clausesFor('khalti'));
  const any = ids(all.filter((c) => c.provider === 'any'));
  assert.deepEqual(khalti, ids(all.filter((c) => c.provider === 'khalti' || c.provider === 'any')));
  assert.deepEqual(khalti.filter((id) => !any.includes(id)), ['khalti-book', 'khalti-return-not-trusted', 'khalti-lookup-400-canceled', 'khalti-forged-return']);
  for (const other of [clausesFor('intent'), clausesFor('epay')]) assert.ok(!ids(other).some((id) => id.startsWith('khalti-')), 'a Khalti clause outside a Khalti run');
});
