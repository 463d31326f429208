/**
 * The sandbox under the chaos soak, in a process of its own so its memory is measured alone: it
 * starts the sandbox with the chaos its parent names, tells its parent the URLs, and answers
 * `memory` (after a full collection when run with --expose-gc) and `counts` over IPC.
 */
import { startSandbox } from '../src/sandbox/index.js';

const send = (message: unknown) => process.send?.(message);
const chaos = JSON.parse(process.env['SOAK_CHAOS'] ?? '{}') as Record<string, number>;
let lines = 0;
let chaosLines = 0;
const sandbox = await startSandbox({
  accessKey: 'soak-key',
  productCode: 'SOAK',
  bookingTtlMs: 5 * 60_000,
  callbackRetry: { attempts: 4, baseDelayMs: 2_000 },
  chaos,
  log: (line) => {
    lines++;
    if (line.startsWith('chaos #')) chaosLines++;
  },
});
process.on('message', (message: { type: string }) => {
  if (message.type === 'memory') {
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    send({ type: 'memory', rss, heapUsed });
  } else if (message.type === 'counts') {
    send({
      type: 'counts',
      bookings: sandbox.listBookings().length,
      deliveries: sandbox.callbackDeliveries().length,
      attempts: sandbox.callbackAttempts().length,
      lines,
      chaosLines,
    });
  } else if (message.type === 'stop') {
    void sandbox.close().then(() => process.exit(0));
  }
});
send({ type: 'ready', baseUrl: sandbox.baseUrl, linksUrl: sandbox.linksUrl });
