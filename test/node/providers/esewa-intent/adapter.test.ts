/**
 * The intent service's adapter alone: the provider suite on the local sandbox over real HTTP, and the
 * set-up mistakes it refuses at once.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.js';
import { runProviderSuite } from '../../../../src/server/provider-suite.js';
import { esewaIntent } from '../../../../src/server/providers.js';
import { intentOnSandbox } from './harness.js';

describe('esewaIntent through the provider suite', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({ productCode: 'INTENT01', accessKey: 'intent-key', sendCallback: () => false });
  });
  after(() => sandbox.close());
  runProviderSuite({ name: 'esewa-intent', test, assert, ...intentOnSandbox(() => sandbox) });
});

test('esewaIntent refuses a missing option and a serviceUrl with the API path, naming the fix', () => {
  assert.throws(() => esewaIntent({ serviceUrl: 'http://127.0.0.1:9', productCode: '', accessKey: 'k' }), /productCode is required/);
  assert.throws(
    () => esewaIntent({ serviceUrl: 'http://127.0.0.1:9/api/client/intent/payment', productCode: 'P', accessKey: 'k' }),
    /without the API path.*use "http:\/\/127\.0\.0\.1:9"/,
  );
});
