import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findKhaltiScenario, KHALTI_MAGIC_PAISA_BASE, KHALTI_SCENARIOS, khaltiScenarioOfAmount } from '../../../../src/sandbox/khalti/scenarios.js';

test('each Khalti scenario is found by its id, any case, and by its magic amount in paisa', () => {
  assert.ok(KHALTI_SCENARIOS.length > 0);
  assert.equal(new Set(KHALTI_SCENARIOS.map((s) => s.id)).size, KHALTI_SCENARIOS.length, 'ids are unique');
  for (const scenario of KHALTI_SCENARIOS) {
    assert.match(scenario.id, /^KHALTI-\d{3}$/);
    assert.equal(findKhaltiScenario(` ${scenario.id.toLowerCase()}`), scenario);
    assert.equal(khaltiScenarioOfAmount(KHALTI_MAGIC_PAISA_BASE + Number(scenario.id.slice(7))), scenario);
  }
});

test('other amounts and ids select nothing', () => {
  assert.equal(findKhaltiScenario('KHALTI-999'), undefined);
  assert.equal(findKhaltiScenario('EPAY-001'), undefined);
  for (const paisa of [KHALTI_MAGIC_PAISA_BASE, KHALTI_MAGIC_PAISA_BASE + 1000, 1000, KHALTI_MAGIC_PAISA_BASE + 999]) assert.equal(khaltiScenarioOfAmount(paisa), undefined, String(paisa));
});
