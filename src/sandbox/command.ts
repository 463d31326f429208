/**
 * The sandbox's command line, as functions: `parseCommandLine` turns arguments into options (or a
 * clear error), `runCommandLine` starts the sandbox and prints where it listens. `cli.ts` calls it.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseChaos } from './chaos.js';
import { parseDuration } from './clock.js';
import { KHALTI_DEFAULT_EXPIRES_IN_S } from './khalti/index.js';
import { EPAY_SESSION_IDLE_MS } from './epay/rules.js';
import { SANDBOX_DEFAULTS, startSandbox, type Sandbox, type SandboxOptions } from './index.js';
import { PROFILES } from './esewa-intent/profiles.js';
import { INTENT_FLAG_EXAMPLES, INTENT_FLAGS, INTENT_USAGE, intentBanner, intentFlagOptions } from './esewa-intent/flags.js';
import { argumentError, runTool, TOOLS, UsageError } from './tools.js';
import { INTENT_TOOLS } from './esewa-intent/tools.js';

/** Usage text of `wallet-pay-sandbox --help`. */
export const USAGE = `Usage: wallet-pay-sandbox [options]
       wallet-pay-sandbox scenarios [--json]
       wallet-pay-sandbox clock [advance <duration> | set <time>] [--url <base_url>]
       wallet-pay-sandbox scenario <WPS-nnn | none> [--product-code <code>] [--url <base_url>]
       wallet-pay-sandbox callbacks [--dead] [--booking <booking_id>] [--json] [--url <base_url>]
       wallet-pay-sandbox callbacks resend <CB-n> [--to <callback_url>] [--url <base_url>]
       wallet-pay-sandbox run <journey.json|.yaml> --endpoint <url> [--url <base_url>] [--junit <out.xml>]

A local sandbox of the intent payment service (API, wallet page, web payment page, callbacks), of
eSewa's web checkout (ePay v2) and of Khalti (KPG-2), on one origin.

Options:
  --port <n>              API and web payment page port (default ${SANDBOX_DEFAULTS.cliPort})
  --host <address>        interface to listen on (default ${SANDBOX_DEFAULTS.host})
  --access-key <key>      access key for signatures (default '${SANDBOX_DEFAULTS.accessKey}')
  --product-code <code>   a known merchant product code; repeat for several (default '${SANDBOX_DEFAULTS.productCode}')
${INTENT_USAGE}
  --data <dir>            keep bookings, ports, the clock and sticky scenarios in <dir>/sandbox.json
  --chaos <spec>          seeded faults, e.g. timeouts=0.16,errors=0.05,latency=200ms[,hold=10s]
  --seed <n>              the chaos seed (default 1): the same seed, the same faults in the same order
  --epay-session-idle <duration>
                          idle lifetime of an unfinished ePay v2 session before its status reads
                          NOT_FOUND, e.g. 90s or 10m (default ${EPAY_SESSION_IDLE_MS / 60_000}m)
  --khalti-expires-in <seconds>
                          lifetime of a Khalti payment link, its expires_in (default ${KHALTI_DEFAULT_EXPIRES_IN_S})
  --url <base_url>        (clock, scenario, callbacks, run) the running sandbox (default http://127.0.0.1:${SANDBOX_DEFAULTS.cliPort})
  -h, --help              show this help
`;

/** Thrown for a bad command line; its message says which flag and why. */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

/** The parsed command line: options to start with, or a request for help. */
export type CommandLine = { help: true } | { help: false; options: SandboxOptions };

/** A right value of each flag, quoted in its errors. */
const FLAG_EXAMPLES: Readonly<Record<string, string>> = {
  port: '--port 4010',
  host: '--host 127.0.0.1',
  'access-key': '--access-key sandbox-access-key',
  'product-code': '--product-code SHOP01',
  ...INTENT_FLAG_EXAMPLES,
  data: '--data .sandbox-data',
  chaos: '--chaos timeouts=0.16,errors=0.05,latency=200ms',
  seed: '--chaos errors=0.05 --seed 42',
  'epay-session-idle': '--epay-session-idle 10m',
  'khalti-expires-in': '--khalti-expires-in 1800',
  help: '--help',
};

/** A flag's error: what is wrong, then a right one. */
function flagError(flag: string, problem: string): CommandLineError {
  return new CommandLineError(`${problem}; e.g. ${FLAG_EXAMPLES[flag] ?? 'wallet-pay-sandbox --help'}.`);
}

function integer(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw flagError(flag, `--${flag} must be a whole number from ${min} to ${max}; got "${text}"`);
  }
  return Number(text);
}

function duration(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let ms: number;
  try {
    ms = parseDuration(text);
  } catch {
    throw flagError(flag, `--${flag} must be a duration such as 90s or 10m; got "${text}"`);
  }
  if (ms < 1) throw flagError(flag, `--${flag} must be longer than 0; got "${text}"`);
  return ms;
}

/** Parses `wallet-pay-sandbox` arguments (without `node` and the script). */
export function parseCommandLine(args: readonly string[]): CommandLine {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        ...INTENT_FLAGS,
        host: { type: 'string' },
        'access-key': { type: 'string' },
        'product-code': { type: 'string', multiple: true },
        data: { type: 'string' },
        chaos: { type: 'string' },
        seed: { type: 'string' },
        'epay-session-idle': { type: 'string' },
        'khalti-expires-in': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      const word = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '';
      throw new CommandLineError(`"${word}" is not a command; the commands are ${TOOLS.join(', ')} (or none, to start the sandbox); e.g. wallet-pay-sandbox clock advance 15m.`);
    }
    const flags = Object.fromEntries(Object.entries(FLAG_EXAMPLES).map(([name, example]) => [name, { example }]));
    throw new CommandLineError(argumentError(error, 'wallet-pay-sandbox', flags, 'wallet-pay-sandbox --port 4010 --product-code SHOP01 (all options: --help)', args));
  }
  if (values.help) return { help: true };
  const port = integer('port', values.port, 0, 65535) ?? SANDBOX_DEFAULTS.cliPort;
  const intent = intentFlagOptions(values, port, { integer, fail: flagError });
  const accessKey = values['access-key'] ?? SANDBOX_DEFAULTS.accessKey;
  if (accessKey.length === 0) throw flagError('access-key', '--access-key must not be empty');
  const productCodes = values['product-code'] ?? [(intent.profile && PROFILES[intent.profile].productCode) || SANDBOX_DEFAULTS.productCode];
  for (const code of productCodes) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) {
      throw flagError('product-code', `--product-code must be 1 to 64 letters, digits, "-" or "_"; got "${code}"`);
    }
  }
  const khaltiExpiresIn = integer('khalti-expires-in', values['khalti-expires-in'], 1, 30 * 24 * 3600);
  const epaySessionIdleMs = duration('epay-session-idle', values['epay-session-idle']);
  return {
    help: false,
    options: {
      host: values.host ?? SANDBOX_DEFAULTS.host,
      port,
      ...intent,
      accessKey,
      productCode: productCodes,
      ...(values.data !== undefined ? { stateFile: join(values.data, 'sandbox.json') } : {}),
      ...chaosOption(values.chaos, values.seed),
      ...(epaySessionIdleMs !== undefined ? { epaySessionIdleMs } : {}),
      ...(khaltiExpiresIn !== undefined ? { khaltiExpiresIn } : {}),
    },
  };
}

function chaosOption(spec: string | undefined, seed: string | undefined): Pick<SandboxOptions, 'chaos'> {
  if (spec === undefined) {
    if (seed !== undefined) throw flagError('seed', '--seed is the seed of --chaos; give --chaos too');
    return {};
  }
  try {
    return { chaos: { ...parseChaos(spec), seed: integer('seed', seed, 0, 2 ** 32 - 1) ?? 1 } };
  } catch (error) {
    if (error instanceof CommandLineError) throw error;
    throw flagError('chaos', `--chaos: ${(error as Error).message.replace(/\.$/, '')}`);
  }
}

/**
 * Why the sandbox could not start, naming the flag to change and a right value: a port in use or not
 * allowed, an address the host does not have, a data folder it cannot write.
 */
export function startErrorMessage(error: unknown): string {
  const { code, syscall, path, message } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE') return 'a port is already in use: choose others with --port and --links-port, e.g. --port 4020 --links-port 4021 (or 0 for any free one)';
  if (code === 'EACCES' && syscall === 'listen') return `a port below 1024 needs root: choose another with --port and --links-port, e.g. ${FLAG_EXAMPLES['port']!}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `--host names no address of this machine (${message}); e.g. ${FLAG_EXAMPLES['host']!}`;
  if (path !== undefined && (code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR' || code === 'EPERM')) {
    return `--data: cannot write ${path} (${code}); give a folder you can write, e.g. ${FLAG_EXAMPLES['data']!}`;
  }
  return (error as Error).message;
}

/** Where the command line writes. */
export interface CommandLineIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * Runs the command line: prints help, or starts the sandbox and prints its URLs. Returns the running
 * sandbox (undefined after help) or throws `CommandLineError`.
 */
export async function runCommandLine(args: readonly string[], io: CommandLineIo): Promise<Sandbox | undefined> {
  if (args[0] !== undefined && TOOLS.includes(args[0])) {
    try {
      await runTool(args[0], args.slice(1), io, INTENT_TOOLS);
    } catch (error) {
      if (error instanceof UsageError) throw new CommandLineError(error.message);
      throw error;
    }
    return undefined;
  }
  const command = parseCommandLine(args);
  if (command.help) {
    io.out(USAGE);
    return undefined;
  }
  const sandbox = await startSandbox({ ...command.options, log: io.out });
  const intent = intentBanner(sandbox, command.options.strict);
  io.out(
    [
      'wallet-pay-sandbox is running',
      ...intent.addresses,
      `  eSewa ePay v2 form:  ${sandbox.baseUrl}/api/epay/main/v2/form`,
      `  ePay v2 status:      ${sandbox.baseUrl}/api/epay/transaction/status/   (esewaEpay's baseUrl: ${sandbox.baseUrl})`,
      `  Khalti API base:     ${sandbox.baseUrl}/api/v2/   (khalti's baseUrl: ${sandbox.baseUrl})`,
      // The deeplinks and the web payment page are on two origins: the element must allow both.
      `  allowed-hosts:       ${sandbox.allowedHosts}   (paste into <wallet-pay-button allowed-hosts="...">)`,
      `  product codes:       ${sandbox.productCodes.join(', ')}`,
      `  access key:          ${sandbox.accessKey === SANDBOX_DEFAULTS.accessKey ? `${sandbox.accessKey} (default)` : '(as given)'}`,
      intent.fields,
      `  controls:            ${sandbox.baseUrl}/sandbox/{clock,scenario,scenarios,callbacks,desk}`,
      ...(command.options.stateFile ? [`  data:                ${command.options.stateFile} (kept across restarts)`] : []),
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  return sandbox;
}
