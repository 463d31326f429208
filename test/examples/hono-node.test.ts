import { join } from 'node:path';
import { BIN } from './workspace.js';
import { describeExample, startProcess } from './journey.js';

describeExample({
  name: 'hono-node',
  reconcile: 'status-check',
  browser: true,
  postgres: true,
  platformAnswers: {
    malformedHost: 'all',
    // Its headers, then an empty (chunked) body.
    answer: { status: 400, rest: /^(?:(?!\r\n\r\n)[\s\S])*\r\n\r\n(?:0\r\n\r\n)?$/ },
    why: "@hono/node-server builds the Request from the Host before any app code runs and answers a Host it cannot parse with an empty 400",
  },
  start: (dir, env, port) => startProcess(join(BIN, 'tsx'), ['server.ts'], { cwd: dir, env, origin: `http://127.0.0.1:${port}` }),
});
