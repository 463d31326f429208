/**
 * `wallet-pay-check`: the conformance checker from the command line. Importing this module runs it
 * (the `bin` launcher imports it).
 */
import { runCheckCommand } from './command.js';

process.exitCode = await runCheckCommand(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
