import { join } from 'node:path';
import { BIN } from './workspace.js';
import { describeExample, startProcess } from './journey.js';

describeExample({
  name: 'node-http',
  reconcile: 'timer',
  postgres: true,
  start: (dir, env, port) => startProcess(join(BIN, 'tsx'), ['server.ts'], { cwd: dir, env, origin: `http://127.0.0.1:${port}` }),
});
