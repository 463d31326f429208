/**
 * Generated interleavings on the Redis store (a throwaway server): two handler instances sharing it, the real
 * sandbox on loopback, 25 seeded sequences (CONTRIBUTING.md says how to replay one).
 */
import { after, before, test } from 'node:test';
import { checkModel, fromEnvironment } from './run.js';
import { redisBackend } from './stores.js';
import { startStage, type Stage } from './world.js';

let stage: Stage;
before(async () => {
  stage = await startStage(await redisBackend());
});
after(async () => {
  await stage.close();
});

test('Redis store: 25 generated sequences keep every invariant after every step', async () => {
  await checkModel(stage, { seed: 31_2029, ...fromEnvironment(25) });
});
