/**
 * `wallet-pay-sandbox`: starts the sandbox from the command line and stops it on Ctrl+C or SIGTERM.
 * Importing this module runs it (the `bin` launcher imports it).
 */
import { CommandLineError, runCommandLine, startErrorMessage } from './command.js';
import { ToolFailure } from './tools.js';

try {
  const sandbox = await runCommandLine(process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  if (sandbox) {
    const stop = () => {
      void sandbox.close().then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  }
} catch (error) {
  if (error instanceof CommandLineError) {
    console.error(`wallet-pay-sandbox: ${error.message}`);
    process.exitCode = 2;
  } else if (error instanceof ToolFailure) {
    console.error(`wallet-pay-sandbox: ${error.message}`);
    process.exitCode = 1;
  } else {
    console.error(`wallet-pay-sandbox: could not start: ${startErrorMessage(error)}`);
    process.exitCode = 1;
  }
}
