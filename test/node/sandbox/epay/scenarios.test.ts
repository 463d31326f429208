import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EPAY_MAGIC_AMOUNT_BASE, EPAY_SCENARIOS, epayMagicAmountOf, epayScenarioOfPaisa, findEpayScenario } from '../../../../src/sandbox/epay/scenarios.js';

test('each ePay scenario is found by its id, any case, and by its magic amount, which reads back', () => {
  assert.ok(EPAY_SCENARIOS.length > 0);
  assert.equal(new Set(EPAY_SCENARIOS.map((s) => s.id)).size, EPAY_SCENARIOS.length, 'ids are unique');
  for (const scenario of EPAY_SCENARIOS) {
    assert.match(scenario.id, /^EPAY-\d{3}$/);
    assert.equal(findEpayScenario(` ${scenario.id.toLowerCase()} `), scenario);
    const rupees = epayMagicAmountOf(scenario);
    assert.equal(rupees, EPAY_MAGIC_AMOUNT_BASE + Number(scenario.id.slice(5)));
    assert.equal(epayScenarioOfPaisa(rupees * 100), scenario);
  }
});

test('other amounts and ids select nothing', () => {
  assert.equal(findEpayScenario('EPAY-999'), undefined);
  assert.equal(findEpayScenario('WPS-001'), undefined);
  assert.equal(epayScenarioOfPaisa(EPAY_MAGIC_AMOUNT_BASE * 100), undefined, 'the base itself is no scenario');
  assert.equal(epayScenarioOfPaisa((EPAY_MAGIC_AMOUNT_BASE + 1) * 100 + 50), undefined, 'paisa are no magic amount');
  assert.equal(epayScenarioOfPaisa(10_000), undefined);
});
