/**
 * The command line's tools beside starting the sandbox: `scenarios` lists the catalogue; `clock`,
 * `scenario` and `run` talk to a running sandbox over HTTP (its `/sandbox/` controls), so they work
 * from another terminal or a CI step.
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { junitReport, loadJourney, runJourney, JourneyError } from './journey.js';
import { magicAmountOf, SCENARIOS } from './scenarios.js';

/** The tools' names (the first argument). */
export const TOOLS: readonly string[] = ['scenarios', 'clock', 'scenario', 'run'];

/** A tool ran and failed (exit code 1): a journey step failed, or the sandbox refused or was not there. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

interface Io {
  out: (line: string) => void;
}

const DEFAULT_URL = 'http://127.0.0.1:4010';

function options(args: readonly string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    return parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: true,
      options: { url: { type: 'string' }, 'product-code': { type: 'string' }, json: { type: 'boolean' }, endpoint: { type: 'string' }, junit: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (see --help)`);
  }
}

/** A bad tool command line; the command line turns it into its own error (exit code 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}

async function control(base: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(120_000),
    });
  } catch (error) {
    throw new ToolFailure(`could not reach the sandbox at ${base} (${(error as { cause?: Error }).cause?.message ?? (error as Error).message}); is it running? Give its address with --url.`);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new ToolFailure(`the sandbox refused: ${String(answer['error_message'] ?? response.status)}`);
  return answer['data'] as Record<string, unknown>;
}

function offsetText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  return minutes === 0 ? 'real time' : `${minutes > 0 ? '+' : ''}${minutes} min from real time`;
}

async function clock(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = options(args);
  const url = String(values['url'] ?? DEFAULT_URL);
  const [action, value] = positionals;
  let data: Record<string, unknown>;
  if (action === undefined) data = await control(url, '/sandbox/clock');
  else if ((action === 'advance' || action === 'set') && value !== undefined && positionals.length === 2) {
    data = await control(url, '/sandbox/clock', { [action]: value });
  } else throw new UsageError('clock takes nothing, "advance <duration>" (15m, 2h, 1d) or "set <time>" (2026-12-01T10:00:00Z).');
  io.out(`sandbox clock: ${String(data['now'])} (${offsetText(Number(data['offset_ms']))})`);
}

async function scenario(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = options(args);
  const [id] = positionals;
  if (id === undefined || positionals.length !== 1) throw new UsageError('scenario takes one scenario ID (WPS-001 ...) or "none".');
  const data = await control(String(values['url'] ?? DEFAULT_URL), '/sandbox/scenario', {
    scenario: id === 'none' ? null : id,
    ...(values['product-code'] ? { product_code: String(values['product-code']) } : {}),
  });
  const entries = Object.entries(data);
  io.out(entries.length === 0 ? 'sticky scenarios: none' : `sticky scenarios: ${entries.map(([code, s]) => `${code} ${String(s)}`).join(', ')}`);
}

function scenarios(args: readonly string[], io: Io): void {
  const { values } = options(args);
  if (values['json']) {
    io.out(JSON.stringify(SCENARIOS.map((s) => ({ ...s, magic_amount: magicAmountOf(s) })), null, 2));
    return;
  }
  for (const s of SCENARIOS) io.out(`${s.id}  ${s.name.padEnd(27)} ${String(magicAmountOf(s)).padEnd(5)} ${s.summary}`);
}

async function run(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = options(args);
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1) throw new UsageError('run takes one journey file (.json, .yaml or .yml).');
  if (typeof values['endpoint'] !== 'string') throw new UsageError('run needs --endpoint, the merchant\'s endpoint the element uses (e.g. http://127.0.0.1:8080/api/pay).');
  let journey;
  try {
    journey = await loadJourney(file);
  } catch (error) {
    if (error instanceof JourneyError) throw new UsageError(error.message);
    throw error;
  }
  const result = await runJourney(journey, { endpoint: values['endpoint'], sandboxUrl: String(values['url'] ?? DEFAULT_URL), log: io.out });
  if (typeof values['junit'] === 'string') await writeFile(values['junit'], junitReport(result));
  const failed = result.steps.filter((s) => !s.ok).length;
  io.out(`${result.name}: ${result.ok ? 'passed' : 'FAILED'} (${result.steps.length - failed} of ${result.steps.length} steps)`);
  if (!result.ok) throw new ToolFailure(`journey "${result.name}" failed`);
}

/** Runs one tool. */
export async function runTool(name: string, args: readonly string[], io: Io): Promise<void> {
  if (name === 'scenarios') return scenarios(args, io);
  if (name === 'clock') return clock(args, io);
  if (name === 'scenario') return scenario(args, io);
  return run(args, io);
}
