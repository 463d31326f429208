import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN } from './workspace.js';
import { describeExample, startProcess } from './journey.js';

const NEXT_ENV = { NEXT_TELEMETRY_DISABLED: '1' };

describeExample({
  name: 'nextjs',
  reconcile: 'cron-route',
  browser: true,
  postgres: true,
  // One production build per run (type-checked against the package's published types), started
  // twice. Webpack, not Turbopack: the test workspace links node_modules from outside the app's
  // folder, which Turbopack refuses to compile; a merchant's own install has no such links.
  async prepare(dir) {
    execFileSync(join(BIN, 'next'), ['build', '--webpack'], { cwd: dir, env: { ...process.env, ...NEXT_ENV }, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  },
  // The example's own `npm start`: its custom server, which answers a malformed Host and a TRACE as
  // the kit does, where `next start` drops them unanswered.
  start: (dir, env, port) =>
    startProcess(process.execPath, ['server.mjs', '--port', String(port), '--hostname', '127.0.0.1'], { cwd: dir, env: { ...NEXT_ENV, ...env }, origin: `http://127.0.0.1:${port}` }),
});
