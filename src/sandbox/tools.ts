/**
 * The command line's tools beside starting the sandbox: `scenarios` lists the catalogues; `clock`,
 * `scenario`, `callbacks` and `run` talk to a running sandbox over HTTP (its `/sandbox/` controls), so
 * they work from another terminal or a CI step. Every bad argument is refused before any request, by
 * name and with an example of a right one.
 */
import { parseArgs } from 'node:util';
import { parseDuration } from './clock.js';
import { magicAmountOf, SCENARIOS } from './esewa-intent/scenarios.js';
import { EPAY_SCENARIOS, epayMagicAmountOf } from './epay/scenarios.js';
import { KHALTI_MAGIC_PAISA_BASE, KHALTI_SCENARIOS } from './khalti/scenarios.js';

/** The tools' names (the first argument). */
export const TOOLS: readonly string[] = ['scenarios', 'clock', 'scenario', 'callbacks', 'run'];

/** A tool ran and failed (exit code 1): a journey step failed, or the sandbox refused or was not there. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

/** A bad tool command line; the command line turns it into its own error (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Where a tool writes its lines. */
export interface Io {
  out: (line: string) => void;
}

const DEFAULT_URL = 'http://127.0.0.1:4010';

/** A tool's options, with an example value of each, and a right command line of it, quoted in its errors. */
export interface ToolSpec {
  options: Readonly<Record<string, { type: 'string' | 'boolean'; example: string }>>;
  example: string;
}

/** The `--url` option every tool that talks to a running sandbox takes. */
export const URL_OPTION = { type: 'string', example: '--url http://127.0.0.1:4010' } as const;

/** The shared tools; each provider's tools bring their own specs (esewa-intent/tools.ts). */
const SPECS = {
  scenarios: { options: { json: { type: 'boolean', example: '--json' } }, example: 'wallet-pay-sandbox scenarios --json' },
  clock: { options: { url: URL_OPTION }, example: 'wallet-pay-sandbox clock advance 15m --url http://127.0.0.1:4010' },
} as const satisfies Record<string, ToolSpec>;

/**
 * A `parseArgs` error as the command line says it: the argument by name and a right one. `options`
 * are the flags allowed here with an example each; `example` is a whole right command line.
 */
export function argumentError(
  error: unknown,
  where: string,
  options: Readonly<Record<string, { example: string }>>,
  example: string,
  args: readonly string[] = [],
): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const flags = Object.values(options).map((o) => o.example).join(', ');
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // `-5m` reads as an option to parseArgs; a negative duration is what was meant.
    if (where === 'clock' && /^-\d/.test(quoted)) {
      const token = args.find((arg) => arg.startsWith(quoted)) ?? quoted;
      return `${where}: "${token}" is not an option, and the clock never goes back: give a duration forward, e.g. ${SPECS.clock.example}.`;
    }
    return `${where}: unknown option ${quoted}; ${flags ? `the options here are ${flags}` : 'it takes no option'}; e.g. ${example}.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[a-z-]+/.exec(quoted)?.[0] ?? quoted;
    const right = Object.entries(options).find(([name]) => `--${name}` === flag)?.[1].example;
    const problem = /does not take/.test(message) ? 'takes no value' : /ambiguous/.test(message) ? 'needs a value (one starting with "-" reads as an option)' : 'needs a value';
    return `${where}: ${flag} ${problem}, e.g. ${right ?? example}.`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `${where}: "${quoted}" is not an argument here; e.g. ${example}.`;
  return `${where}: ${message}; e.g. ${example}.`;
}

/** A tool's arguments parsed against its spec's options, or a {@link UsageError} naming the wrong one. */
export function toolOptions(tool: string, spec: ToolSpec, args: readonly string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const allowed = spec.options;
  try {
    const parsed = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(Object.entries(allowed).map(([name, { type }]) => [name, { type }])),
    });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError(argumentError(error, tool, allowed, spec.example, args));
  }
}

/** The sandbox's base URL from `--url`, checked before any request. */
export function toolBaseUrl(tool: string, values: Record<string, string | boolean | undefined>): string {
  const url = String(values['url'] ?? DEFAULT_URL);
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new UsageError(`${tool}: --url must be the running sandbox's base URL, e.g. --url ${DEFAULT_URL}; got "${url}".`);
  }
  return url.replace(/\/+$/, '');
}

/** Asks a control of the running sandbox; `asked` and `example` say, in a refusal, what was asked and what would do. */
export async function askSandbox(base: string, path: string, request: { body?: unknown; asked: string; example: string }): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: request.body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    const cause = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new ToolFailure(`could not reach the sandbox at ${base} (${cause}); is it running? Give its address with --url, e.g. --url ${DEFAULT_URL}.`);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    throw new ToolFailure(`the sandbox refused ${request.asked}: ${String(answer['error_message'] ?? response.status)} (e.g. ${request.example})`);
  }
  return answer['data'];
}

function offsetText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes === 0 ? 'real time' : `${minutes > 0 ? '+' : ''}${minutes} min from real time`;
}

/** The body of a clock move, checked here so a wrong value is named before any request. */
function clockMove(action: string | undefined, value: string | undefined, count: number): Record<string, string> | undefined {
  if (action === undefined) return undefined;
  if (action === 'advance' && value !== undefined && count === 2) {
    try {
      parseDuration(value);
    } catch {
      throw new UsageError(`clock advance: "${value}" is not a duration forward; write a number and a unit (15m, 90s, 2h, 1d), e.g. ${SPECS.clock.example}.`);
    }
    return { advance: value };
  }
  if (action === 'set' && value !== undefined && count === 2) {
    if (Number.isNaN(Date.parse(value))) {
      throw new UsageError(`clock set: "${value}" is not a time; write an ISO time, e.g. wallet-pay-sandbox clock set 2026-12-01T10:00:00Z.`);
    }
    return { set: value };
  }
  const got = [action, value].filter((part) => part !== undefined).join(' ');
  throw new UsageError(`clock takes nothing, "advance <duration>" or "set <time>"; got "${got}"${count > 2 ? ' and more' : ''}; e.g. ${SPECS.clock.example}.`);
}

async function clock(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = toolOptions('clock', SPECS.clock, args);
  const move = clockMove(positionals[0], positionals[1], positionals.length);
  const url = toolBaseUrl('clock', values);
  const data = (await askSandbox(url, '/sandbox/clock', {
    ...(move ? { body: move } : {}),
    asked: `clock ${positionals.join(' ')}`.trim(),
    example: move?.['set'] ? "wallet-pay-sandbox clock set with a time after the sandbox's clock, which wallet-pay-sandbox clock shows" : SPECS.clock.example,
  })) as Record<string, unknown>;
  io.out(`sandbox clock: ${String(data['now'])} (${offsetText(Number(data['offset_ms']))})`);
}

function scenarios(args: readonly string[], io: Io): void {
  const { values, positionals } = toolOptions('scenarios', SPECS.scenarios, args);
  if (positionals.length > 0) throw new UsageError(`scenarios takes no argument; got "${positionals.join(' ')}"; e.g. ${SPECS.scenarios.example}.`);
  if (values['json']) {
    io.out(JSON.stringify(SCENARIOS.map((s) => ({ ...s, magic_amount: magicAmountOf(s) })), null, 2));
    return;
  }
  const line = (s: { id: string; name: string; summary: string }, amount: number) => `${s.id}  ${s.name.padEnd(27)} ${String(amount).padEnd(5)} ${s.summary}`;
  for (const s of SCENARIOS) io.out(line(s, magicAmountOf(s)));
  // The other providers' catalogues, each with how its magic amount is written (their APIs differ).
  io.out('\neSewa ePay v2 (total_amount in rupees, or the login page\'s picker):');
  for (const s of EPAY_SCENARIOS) io.out(line(s, epayMagicAmountOf(s)));
  io.out('\nKhalti (amount in paisa, the Wallet-Pay-Scenario header, merchant_scenario, or the pay page\'s picker):');
  for (const s of KHALTI_SCENARIOS) io.out(line(s, KHALTI_MAGIC_PAISA_BASE + Number(s.id.slice('KHALTI-'.length))));
}

/**
 * Runs one tool: the catalogues and the clock here, every provider's own tools from `providerTools`
 * (the intent service's `scenario`, `callbacks` and `run`, which the command line passes in).
 */
export async function runTool(name: string, args: readonly string[], io: Io, providerTools: Readonly<Record<string, (args: readonly string[], io: Io) => Promise<void>>>): Promise<void> {
  if (name === 'scenarios') return scenarios(args, io);
  if (name === 'clock') return clock(args, io);
  const tool = providerTools[name];
  if (!tool) throw new UsageError(`"${name}" is not a tool; the tools are ${TOOLS.join(', ')}.`);
  return tool(args, io);
}
