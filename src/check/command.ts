/**
 * The checker's command line, as functions: `parseCheckArgs` turns arguments into options (or a clear
 * error), `formatResult` and `formatSummary` write its lines, `runCheckCommand` does the whole run.
 * `cli.ts` calls it.
 */
import { parseArgs } from 'node:util';
import { runCheck, checkOptions, type CheckOptions, type CheckReport, type ClauseResult } from './run.js';

/** Usage text of `wallet-pay-check --help`. */
export const CHECK_USAGE = `Usage: wallet-pay-check --endpoint <url> --sandbox-port <port> --order-prefix <prefix> --amount <n> [--json]

Proves a running book proxy against the contract of <wallet-pay-button>. Starts the sandbox of the
payment service on --sandbox-port (default access key and product code); the proxy must use
http://127.0.0.1:<port> as its service URL and treat every order whose id starts with --order-prefix
as payable for --amount.

Options:
  --endpoint <url>        the proxy's base URL (the element's endpoint): .../book, .../status, .../cancel
  --sandbox-port <n>      port for the sandbox's API and web payment page
  --order-prefix <text>   order ids the proxy sells
  --amount <n>            what the proxy charges for them
  --json                  print { clauses: [{ id, title, ok, detail }], passed, failed } on stdout
  -h, --help              show this help

Exit code: 0 when every clause passes, 1 when one fails, 2 for a bad command line.
`;

/** Thrown for a bad command line; its message says which flag and why. */
export class CheckCommandError extends Error {
  override name = 'CheckCommandError';
}

/** The parsed command line. */
export type CheckCommand = { help: true } | { help: false; json: boolean; options: CheckOptions };

/** Parses `wallet-pay-check` arguments (without `node` and the script). */
export function parseCheckArgs(args: readonly string[]): CheckCommand {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        endpoint: { type: 'string' },
        'sandbox-port': { type: 'string' },
        'order-prefix': { type: 'string' },
        amount: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CheckCommandError((error as Error).message);
  }
  if (values.help) return { help: true };
  for (const flag of ['endpoint', 'sandbox-port', 'order-prefix', 'amount'] as const) {
    if (values[flag] === undefined) throw new CheckCommandError(`--${flag} is required.`);
  }
  const port = values['sandbox-port']!;
  const amount = values.amount!;
  if (!/^\d+$/.test(port)) throw new CheckCommandError(`--sandbox-port must be a whole number from 1 to 65535; got "${port}".`);
  if (!/^\d+(\.\d{1,2})?$/.test(amount)) throw new CheckCommandError(`--amount must be a positive amount with at most two decimals; got "${amount}".`);
  const options: CheckOptions = {
    endpoint: values.endpoint!,
    sandboxPort: Number(port),
    orderPrefix: values['order-prefix']!,
    amount: Number(amount),
  };
  try {
    checkOptions(options);
  } catch (error) {
    throw new CheckCommandError((error as Error).message);
  }
  return { help: false, json: values.json ?? false, options };
}

/** One clause's line: `PASS id  title` or `FAIL id  title: detail`. */
export function formatResult(result: ClauseResult): string {
  return result.ok ? `PASS ${result.id}  ${result.title}` : `FAIL ${result.id}  ${result.title}: ${result.detail}`;
}

/** The last line, plain, for any CI to read. */
export function formatSummary(report: Pick<CheckReport, 'passed' | 'failed'>): string {
  return `${report.passed} passed, ${report.failed} failed`;
}

/** Output sinks of a run. */
export interface CheckOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Runs the command: lines (or the JSON document) on `out`; with `--json` the summary goes to `err`, so
 * stdout stays one JSON document and the combined output still ends with the summary. Returns the
 * exit code.
 */
export async function runCheckCommand(args: readonly string[], output: CheckOutput): Promise<number> {
  let command: CheckCommand;
  try {
    command = parseCheckArgs(args);
  } catch (error) {
    if (!(error instanceof CheckCommandError)) throw error;
    output.err(`wallet-pay-check: ${error.message}`);
    output.err('Run wallet-pay-check --help for the usage.');
    return 2;
  }
  if (command.help) {
    output.out(CHECK_USAGE);
    return 0;
  }
  let report: CheckReport;
  try {
    report = await runCheck({ ...command.options, ...(command.json ? {} : { onClause: (result) => output.out(formatResult(result)) }) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    output.err(
      `wallet-pay-check: could not start the sandbox: ${code === 'EADDRINUSE' ? `port ${command.options.sandboxPort} is already in use` : (error as Error).message}`,
    );
    return 2;
  }
  if (command.json) {
    output.out(JSON.stringify({ clauses: report.clauses, passed: report.passed, failed: report.failed }, null, 2));
    output.err(formatSummary(report));
  } else {
    output.out(formatSummary(report));
  }
  return report.failed === 0 ? 0 : 1;
}
