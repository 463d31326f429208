import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPES, WalletPayEvent } from '../../../src/element/events.js';

test("each flow event is wallet-pay-<type>: bubbling, crossing shadow roots, carrying the flow event's fields", () => {
  const event = new WalletPayEvent('booked', { booking_id: 'B-1' } as never);
  assert.equal(event.type, 'wallet-pay-booked');
  assert.ok(event.bubbles && event.composed);
  assert.deepEqual(event.detail, { booking_id: 'B-1' });
  assert.ok(event instanceof Event);
});

test('only the events fired before the page is left or a host app takes over are cancelable', () => {
  const cancelable = Object.entries(EVENT_TYPES).filter(([, can]) => can).map(([type]) => type);
  assert.deepEqual(cancelable.sort(), ['navigate', 'webview']);
  for (const type of Object.keys(EVENT_TYPES) as Array<keyof typeof EVENT_TYPES>) {
    const event = new WalletPayEvent(type, {} as never);
    assert.equal(event.cancelable, EVENT_TYPES[type], type);
    event.preventDefault();
    assert.equal(event.defaultPrevented, EVENT_TYPES[type], `${type}: preventDefault ${EVENT_TYPES[type] ? 'works' : 'does nothing'}`);
  }
});
