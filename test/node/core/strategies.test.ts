import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { STRATEGIES, type BookedAttempt, type StrategyContext } from '../../../src/core/strategies.js';
import { settingsOf } from '../../support/settings.js';

/** A context that records what a strategy asks for; `book` answers `booked` (or `null`: a failure). */
function recording(booked: BookedAttempt | null, hostTakes = true) {
  const calls: string[] = [];
  const context: StrategyContext = {
    book: async (channel) => {
      calls.push(`book:${channel}`);
      return booked;
    },
    followWebPayment: () => void calls.push('followWebPayment'),
    openApp: () => void calls.push('openApp'),
    handOver: () => (calls.push('handOver'), hostTakes),
    showCode: () => void calls.push('showCode'),
  };
  return { context, calls };
}

const booked: BookedAttempt = {
  kept: { booking_id: 'B1', correlation_id: 'c', channel: 'app', idempotency_key: 'k', started_at: 0, settings: settingsOf() },
  result: { booking_id: 'B1', correlation_id: 'c', channel: 'app', deeplink: 'https://links.wallet.test/pay/B1' },
};

describe('payment strategies', () => {
  it('desktop books on the web channel and follows the web payment', async () => {
    const { context, calls } = recording(booked);
    await STRATEGIES.desktop.start(context);
    assert.deepEqual(calls, ['book:web', 'followWebPayment']);
  });

  it('mobile books on the app channel and opens the app', async () => {
    const { context, calls } = recording(booked);
    await STRATEGIES.mobile.start(context);
    assert.deepEqual(calls, ['book:app', 'openApp']);
  });

  it('a phone follows the web payment a wallet paid on the web only answers', async () => {
    const web: BookedAttempt = {
      kept: { ...booked.kept, channel: 'web' },
      result: { booking_id: 'B1', correlation_id: 'c', channel: 'web', web_payment: { url: 'https://pay.wallet.test/form', method: 'POST', fields: {} } },
    };
    const { context, calls } = recording(web);
    await STRATEGIES.mobile.start(context);
    assert.deepEqual(calls, ['book:app', 'followWebPayment']);
  });

  it('the hand-off books on the app channel and shows the code', async () => {
    const { context, calls } = recording(booked);
    await STRATEGIES.handoff.start(context);
    assert.deepEqual(calls, ['book:app', 'showCode']);
  });

  it('a failed booking goes no further', async () => {
    for (const environment of ['desktop', 'mobile', 'handoff', 'inapp'] as const) {
      const { context, calls } = recording(null);
      await STRATEGIES[environment].start(context);
      assert.equal(calls.length, 1);
    }
  });

  it('a WebView whose host app takes the payment books nothing', async () => {
    const { context, calls } = recording(booked);
    await STRATEGIES.webview.start(context);
    assert.deepEqual(calls, ['handOver']);
  });

  it('a WebView whose host app does not take it goes on as in an in-app browser', async () => {
    const { context, calls } = recording(booked, false);
    await STRATEGIES.webview.start(context);
    assert.deepEqual(calls, ['handOver', 'book:web', 'followWebPayment']);
  });

  it('an in-app browser books on the web channel and follows the web payment at once, never opening the app by script', async () => {
    const { context, calls } = recording(booked);
    await STRATEGIES.inapp.start(context);
    assert.deepEqual(calls, ['book:web', 'followWebPayment']);
  });
});
