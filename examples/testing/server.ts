/**
 * The testing guide's shop as a process of its own, in test mode, as CI starts it beside the sandbox:
 * `SANDBOX_URL=http://127.0.0.1:4010 PORT=8080 SHOP_SESSION=test-session-1 tsx server.ts`.
 */
import { startShop } from './shop.js';

const shop = await startShop({
  serviceUrl: process.env.SANDBOX_URL ?? 'http://127.0.0.1:4010',
  port: Number(process.env.PORT ?? 8080),
  sessions: [process.env.SHOP_SESSION ?? 'test-session-1'],
  testMode: true,
});
console.log(`shop listening on ${shop.origin}`);
process.on('SIGTERM', () => void shop.close().then(() => process.exit(0)));
