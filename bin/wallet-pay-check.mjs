#!/usr/bin/env node
// Launcher of the conformance checker's command line from the built package (src/check/cli.ts in dist/).
import('../dist/check/cli.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/check/cli.js')) {
    console.error('wallet-pay-check: dist/check/cli.js is missing. Run `npm run build`, or `npx tsx src/check/cli.ts` in the repository.');
    process.exitCode = 2;
    return;
  }
  throw error;
});
