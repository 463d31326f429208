/** The sandbox's refusal class: one class, thrown by the entry and by each emulation, exported by the entry. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SandboxOptionError } from '../../../src/sandbox/errors.js';
import { SandboxOptionError as Exported, startSandbox } from '../../../src/sandbox/index.js';

test('SandboxOptionError is an Error named for itself, the same class the entry exports', async () => {
  const error = new SandboxOptionError('port must be an integer from 0 to 65535; got -1.');
  assert.ok(error instanceof Error);
  assert.equal(error.name, 'SandboxOptionError');
  assert.equal(Exported, SandboxOptionError);
  await assert.rejects(startSandbox({ port: -1 }), (thrown: Error) => thrown instanceof SandboxOptionError && /port must be an integer/.test(thrown.message));
  await assert.rejects(startSandbox({ accessKey: '' }), (thrown: Error) => thrown instanceof SandboxOptionError && thrown.message === 'accessKey must be a non-empty string.');
});
