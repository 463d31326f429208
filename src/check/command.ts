/**
 * The checker's command line, as functions: `parseCheckArgs` turns arguments into options (or a clear
 * error), `formatResult` and `formatSummary` write its lines, `runCheckCommand` does the whole run.
 * `cli.ts` calls it.
 */
import { parseArgs } from 'node:util';
import { printable } from './exchange.js';
import { runCheck, checkOptions, runWarnings, type CheckOptions, type CheckReport, type ClauseResult } from './run.js';

/** Usage text of `wallet-pay-check --help`. */
const CHECK_USAGE = `Usage: wallet-pay-check --endpoint <url> --sandbox-port <port> --order-prefix <prefix> --amount <n>
                        (--reconcile-command <cmd> | --no-reconcile) [--callback-origin <origin>]...
                        [--provider epay|khalti] [--json]

Proves a running book proxy against the contract of <wallet-pay-button>. Starts the sandbox of the
payment service on --sandbox-port (default access key and product code); the proxy must use
http://127.0.0.1:<port> as its service URL and treat every order whose id starts with --order-prefix
as payable for --amount.

Options:
  --endpoint <url>        the proxy's base URL (the element's endpoint): .../book, .../status, .../cancel
  --sandbox-port <n>      port for the sandbox's API and web payment page
  --order-prefix <text>   order ids the proxy sells
  --amount <n>            what the proxy charges for them
  --reconcile-command <c> how the proxy runs its reconciliation once (a shell command), e.g.
                          "php proxy.php reconcile"; this or --no-reconcile is required
  --no-reconcile          the backend has no reconciliation: that clause is skipped and the report
                          warns that payments whose shopper never came back stay unsettled
  --callback-origin <o>   another origin the proxy's callback URL may be on (repeatable); callbacks
                          go to no other origin than these and --endpoint's
  --provider <p>          intent (default) or epay: a backend in its ePay v2 mode, its EPAY_FORM_URL
                          and EPAY_STATUS_URL on the sandbox, runs the ePay clauses instead; or
                          khalti: in its Khalti mode, KHALTI_BASE_URL the sandbox, KHALTI_SECRET_KEY
                          its access key, runs the Khalti clauses instead
  --json                  print { clauses: [{ id, title, ok, detail }], passed, failed, skipped,
                          warnings } on stdout
  -h, --help              show this help

Use a check instance of the proxy (its own port and database, a sandbox service URL), never the
production one, and a --sandbox-port other than 4010, the dev sandbox's.

A clause that pays at the sandbox names the scenario it plays after its title ([WPS-001]), as the
sandbox's log does; wallet-pay-sandbox scenarios lists them.

Exit code: 0 when no clause fails (skipped ones are named), 1 when one fails, 2 for a bad command line.
`;

/** Thrown for a bad command line; its message says which flag and why. */
class CheckCommandError extends Error {
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
        'reconcile-command': { type: 'string' },
        'no-reconcile': { type: 'boolean' },
        'callback-origin': { type: 'string', multiple: true },
        provider: { type: 'string' },
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
  const reconcile = values['reconcile-command'];
  if (reconcile !== undefined && reconcile.trim() === '') throw new CheckCommandError('--reconcile-command is empty.');
  const options: CheckOptions = {
    endpoint: values.endpoint!,
    sandboxPort: Number(port),
    orderPrefix: values['order-prefix']!,
    amount: Number(amount),
    reconcile: reconcile ?? false,
    ...(values['callback-origin'] !== undefined ? { callbackOrigins: values['callback-origin'] } : {}),
    ...(values.provider !== undefined ? { provider: values.provider as CheckOptions['provider'] } : {}),
  };
  try {
    checkOptions(options);
  } catch (error) {
    throw new CheckCommandError((error as Error).message);
  }
  // Asked for after the values are known good, so a bad value is named first.
  if (reconcile !== undefined && values['no-reconcile']) throw new CheckCommandError('--reconcile-command and --no-reconcile exclude each other: give one.');
  if (reconcile === undefined && !values['no-reconcile']) {
    throw new CheckCommandError(
      '--reconcile-command <cmd> (how the proxy reconciles once) is required; or --no-reconcile for a backend that has none, where payments whose shopper never came back stay unsettled.',
    );
  }
  return { help: false, json: values.json ?? false, options };
}

/**
 * One clause's line: `PASS id  title`, `FAIL id  title: detail` or `SKIP id  title: why`, with the
 * scenarios it drove after the title (`[WPS-001]`); never a control character.
 */
export function formatResult(result: ClauseResult): string {
  const title = result.scenarios?.length ? `${result.title} [${result.scenarios.join(', ')}]` : result.title;
  const line = result.ok ? `PASS ${result.id}  ${title}` : `${result.skipped ? 'SKIP' : 'FAIL'} ${result.id}  ${title}: ${result.detail}`;
  return printable(line);
}

/** The last line, plain, for any CI to read. */
function formatSummary(report: Pick<CheckReport, 'passed' | 'failed'> & { skipped?: number }): string {
  return `${report.passed} passed, ${report.failed} failed${report.skipped ? `, ${report.skipped} skipped` : ''}`;
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
  // Said before the run, where a reader looks first, and again in the JSON document.
  for (const warning of runWarnings(command.options)) output.err(warning);
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
    output.out(JSON.stringify({ clauses: report.clauses, passed: report.passed, failed: report.failed, skipped: report.skipped, warnings: report.warnings }, null, 2));
    output.err(formatSummary(report));
  } else {
    output.out(formatSummary(report));
  }
  return report.failed === 0 ? 0 : 1;
}
