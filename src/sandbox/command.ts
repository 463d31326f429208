/**
 * The sandbox's command line, as functions: `parseCommandLine` turns arguments into options (or a
 * clear error), `runCommandLine` starts the sandbox and prints where it listens. `cli.ts` calls it.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseChaos } from './chaos.js';
import { SANDBOX_DEFAULTS, startSandbox, type Sandbox, type SandboxOptions } from './index.js';
import { PROFILES, type ProfileName } from './profiles.js';
import { runTool, TOOLS, UsageError } from './tools.js';

/** Usage text of `wallet-pay-sandbox --help`. */
export const USAGE = `Usage: wallet-pay-sandbox [options]
       wallet-pay-sandbox scenarios [--json]
       wallet-pay-sandbox clock [advance <duration> | set <time>] [--url <base_url>]
       wallet-pay-sandbox scenario <WPS-nnn | none> [--product-code <code>] [--url <base_url>]
       wallet-pay-sandbox run <journey.json|.yaml> --endpoint <url> [--url <base_url>] [--junit <out.xml>]

A local sandbox of the intent payment service (API, wallet page, web payment page, callbacks).

Options:
  --port <n>              API and web payment page port (default ${SANDBOX_DEFAULTS.cliPort})
  --links-port <n>        links origin port, where deeplinks open the wallet page (default ${SANDBOX_DEFAULTS.cliLinksPort})
  --host <address>        interface to listen on (default ${SANDBOX_DEFAULTS.host})
  --access-key <key>      access key for signatures (default '${SANDBOX_DEFAULTS.accessKey}')
  --product-code <code>   a known merchant product code; repeat for several (default '${SANDBOX_DEFAULTS.productCode}')
  --booking-ttl <seconds> expiry of an unpaid booking (default ${SANDBOX_DEFAULTS.bookingTtlMs / 1000})
  --callback-attempts <n> callback delivery attempts (default ${SANDBOX_DEFAULTS.callbackRetry.attempts})
  --callback-delay <ms>   first retry delay, doubled on each retry (default ${SANDBOX_DEFAULTS.callbackRetry.baseDelayMs})
  --strict                refuse request fields the spec does not list (IP-422); by default they are
                          ignored with a warning in the log
  --data <dir>            keep bookings, ports, the clock and sticky scenarios in <dir>/sandbox.json
  --chaos <spec>          seeded faults, e.g. timeouts=0.16,errors=0.05,latency=200ms[,hold=10s]
  --seed <n>              the chaos seed (default 1): the same seed, the same faults in the same order
  --profile <name>        spec (default) or esewa-uat (the provider's test service as public facts show it)
  --url <base_url>        (clock, scenario, run) the running sandbox (default http://127.0.0.1:${SANDBOX_DEFAULTS.cliPort})
  -h, --help              show this help
`;

/** Thrown for a bad command line; its message says which flag and why. */
export class CommandLineError extends Error {
  override name = 'CommandLineError';
}

/** The parsed command line: options to start with, or a request for help. */
export type CommandLine = { help: true } | { help: false; options: SandboxOptions };

function integer(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new CommandLineError(`--${flag} must be a whole number from ${min} to ${max}; got "${text}".`);
  }
  return Number(text);
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
        'links-port': { type: 'string' },
        host: { type: 'string' },
        'access-key': { type: 'string' },
        'product-code': { type: 'string', multiple: true },
        'booking-ttl': { type: 'string' },
        'callback-attempts': { type: 'string' },
        'callback-delay': { type: 'string' },
        strict: { type: 'boolean' },
        data: { type: 'string' },
        chaos: { type: 'string' },
        seed: { type: 'string' },
        profile: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new CommandLineError(`${(error as Error).message} (see --help)`);
  }
  if (values.help) return { help: true };
  const port = integer('port', values.port, 0, 65535) ?? SANDBOX_DEFAULTS.cliPort;
  const linksPort = integer('links-port', values['links-port'], 0, 65535) ?? SANDBOX_DEFAULTS.cliLinksPort;
  if (port !== 0 && port === linksPort) throw new CommandLineError(`--port and --links-port must differ; both are ${port}.`);
  const accessKey = values['access-key'] ?? SANDBOX_DEFAULTS.accessKey;
  if (accessKey.length === 0) throw new CommandLineError('--access-key must not be empty.');
  const profile = values.profile as ProfileName | undefined;
  if (profile !== undefined && !Object.hasOwn(PROFILES, profile)) {
    throw new CommandLineError(`--profile must be one of ${Object.keys(PROFILES).join(', ')}; got "${profile}".`);
  }
  const productCodes = values['product-code'] ?? [(profile && PROFILES[profile].productCode) || SANDBOX_DEFAULTS.productCode];
  for (const code of productCodes) {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(code)) {
      throw new CommandLineError(`--product-code must be 1 to 64 letters, digits, "-" or "_"; got "${code}".`);
    }
  }
  const ttlSeconds = integer('booking-ttl', values['booking-ttl'], 1, 7 * 24 * 3600);
  const attempts = integer('callback-attempts', values['callback-attempts'], 1, 20);
  const baseDelayMs = integer('callback-delay', values['callback-delay'], 0, 3_600_000);
  return {
    help: false,
    options: {
      host: values.host ?? SANDBOX_DEFAULTS.host,
      port,
      linksPort,
      accessKey,
      productCode: productCodes,
      ...(ttlSeconds !== undefined ? { bookingTtlMs: ttlSeconds * 1000 } : {}),
      callbackRetry: {
        attempts: attempts ?? SANDBOX_DEFAULTS.callbackRetry.attempts,
        baseDelayMs: baseDelayMs ?? SANDBOX_DEFAULTS.callbackRetry.baseDelayMs,
      },
      ...(values.strict ? { strict: true } : {}),
      ...(values.data !== undefined ? { stateFile: join(values.data, 'sandbox.json') } : {}),
      ...chaosOption(values.chaos, values.seed),
      ...(profile !== undefined ? { profile } : {}),
    },
  };
}

function chaosOption(spec: string | undefined, seed: string | undefined): Pick<SandboxOptions, 'chaos'> {
  if (spec === undefined) {
    if (seed !== undefined) throw new CommandLineError('--seed is the seed of --chaos; give --chaos too.');
    return {};
  }
  try {
    return { chaos: { ...parseChaos(spec), seed: integer('seed', seed, 0, 2 ** 32 - 1) ?? 1 } };
  } catch (error) {
    if (error instanceof CommandLineError) throw error;
    throw new CommandLineError(`--chaos: ${(error as Error).message}`);
  }
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
      await runTool(args[0], args.slice(1), io);
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
  io.out(
    [
      'wallet-pay-sandbox is running',
      `  serviceUrl:          ${sandbox.baseUrl}   (the service's base_url: give the kit this, nothing after it)`,
      `  API:                 ${sandbox.baseUrl}/api/client/intent/payment/{book,status,cancel}`,
      `  web payment page:    ${sandbox.webPaymentUrl}`,
      `  links (links_url):   ${sandbox.linksUrl}/pay/{booking_id}`,
      // The deeplinks and the web payment page are on two origins: the element must allow both.
      `  allowed-hosts:       ${sandbox.allowedHosts}   (paste into <wallet-pay-button allowed-hosts="...">)`,
      `  product codes:       ${sandbox.productCodes.join(', ')}`,
      `  access key:          ${sandbox.accessKey === SANDBOX_DEFAULTS.accessKey ? `${sandbox.accessKey} (default)` : '(as given)'}`,
      `  unknown fields:      ${command.options.strict ? 'refused with IP-422 (--strict)' : 'ignored, with a warning line (--strict refuses them)'}`,
      `  controls:            ${sandbox.baseUrl}/sandbox/{clock,scenario,scenarios,callbacks,desk}`,
      ...(command.options.stateFile ? [`  data:                ${command.options.stateFile} (kept across restarts)`] : []),
      'Press Ctrl+C to stop.',
    ].join('\n'),
  );
  return sandbox;
}
