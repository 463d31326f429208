/**
 * Generated interleavings on PostgreSQL (a throwaway server): two handler instances sharing one database, the real sandbox on
 * loopback, 100 seeded sequences (CONTRIBUTING.md says how to replay one).
 */
import { after, before, test } from 'node:test';
import { checkModel, fromEnvironment } from './run.js';
import { postgresBackend, startStage, type Stage } from './world.js';

let stage: Stage;
before(async () => {
  stage = await startStage(await postgresBackend());
});
after(async () => {
  await stage.close();
});

test('PostgreSQL store: 100 generated sequences keep every invariant after every step', async () => {
  await checkModel(stage, { seed: 31_2027, ...fromEnvironment(100) });
});
