/**
 * Generated interleavings on the memory store: two handler instances sharing it, the real sandbox on
 * loopback, 50 seeded sequences (CONTRIBUTING.md says how to replay one).
 */
import { after, before, test } from 'node:test';
import { checkModel, fromEnvironment } from './run.js';
import { memoryBackend, startStage, type Stage } from './world.js';

let stage: Stage;
before(async () => {
  stage = await startStage(memoryBackend());
});
after(async () => {
  await stage.close();
});

test('memory store: 50 generated sequences keep every invariant after every step', async () => {
  await checkModel(stage, { seed: 31_2026, ...fromEnvironment(50) });
});
