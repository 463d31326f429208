import { join } from 'node:path';
import { BIN } from './workspace.js';
import { describeExample, startProcess } from './journey.js';

describeExample({
  name: 'deno',
  reconcile: 'status-check',
  postgres: true,
  start: (dir, env, port) =>
    startProcess(join(BIN, 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', 'server.ts'], {
      cwd: dir,
      // Deno's own cache stays inside the workspace, away from the user's.
      env: { DENO_DIR: join(dir, '.deno'), DENO_NO_UPDATE_CHECK: '1', ...env },
      origin: `http://127.0.0.1:${port}`,
    }),
});
