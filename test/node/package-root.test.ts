import { test } from 'node:test';
import assert from 'node:assert/strict';

test('the package root imports in Node without a DOM', async () => {
  assert.equal(typeof (globalThis as { document?: unknown }).document, 'undefined');
  const root = await import('wallet-pay-button');
  assert.equal(
    root.detectEnvironment({ userAgent: 'Mozilla/5.0 (iPhone)', maxTouchPoints: 5, innerWidth: 390 }),
    'mobile',
  );
  assert.equal(
    root.detectEnvironment({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', maxTouchPoints: 0, innerWidth: 1280 }),
    'desktop',
  );
});
