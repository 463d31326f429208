/**
 * Generated interleavings on the MySQL store (MariaDB) (a throwaway server): two handler instances sharing it, the real
 * sandbox on loopback, 25 seeded sequences (CONTRIBUTING.md says how to replay one).
 */
import { after, before, test } from 'node:test';
import { checkModel, fromEnvironment } from './run.js';
import { mysqlBackend } from './stores.js';
import { startStage, type Stage } from './world.js';

let stage: Stage;
before(async () => {
  stage = await startStage(await mysqlBackend());
});
after(async () => {
  await stage.close();
});

test('MySQL store (MariaDB): 25 generated sequences keep every invariant after every step', async () => {
  await checkModel(stage, { seed: 31_2028, ...fromEnvironment(25) });
});
