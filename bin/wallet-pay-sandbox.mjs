#!/usr/bin/env node
// Launcher of the sandbox's command line from the built package (src/sandbox/cli.ts in dist/).
import('../dist/sandbox/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/sandbox/cli.js')) {
    console.error('wallet-pay-sandbox: dist/sandbox/cli.js is missing. Run `npm run build`, or `npx tsx src/sandbox/cli.ts` in the repository.');
    process.exitCode = 1;
    return;
  }
  throw error;
});
