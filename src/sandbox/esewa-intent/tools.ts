/**
 * The intent service's tools of the sandbox's command line: `scenario` sets a product code's sticky
 * scenario, `callbacks` reads the callback desk and resends a delivery, `run` plays a journey file.
 * They talk to a running sandbox over HTTP with the shared tools' parsing and refusals (../tools.ts).
 */
import { writeFile } from 'node:fs/promises';
import { askSandbox, toolBaseUrl, toolOptions, ToolFailure, UsageError, URL_OPTION, type Io, type ToolSpec } from '../tools.js';
import { junitReport, loadJourney, runJourney, JourneyError } from './journey.js';
import { findScenario } from './scenarios.js';

/** Its tools' options, with an example value of each, and a right command line of each, quoted in their errors. */
const SPECS = {
  scenario: {
    options: { url: URL_OPTION, 'product-code': { type: 'string', example: '--product-code SANDBOX' } },
    example: 'wallet-pay-sandbox scenario WPS-004 --product-code SANDBOX',
  },
  callbacks: {
    options: {
      url: URL_OPTION,
      dead: { type: 'boolean', example: '--dead' },
      booking: { type: 'string', example: '--booking BK-1' },
      json: { type: 'boolean', example: '--json' },
      to: { type: 'string', example: '--to http://127.0.0.1:8080/api/pay/callback' },
    },
    example: 'wallet-pay-sandbox callbacks --dead, or wallet-pay-sandbox callbacks resend CB-3',
  },
  run: {
    options: {
      url: URL_OPTION,
      endpoint: { type: 'string', example: '--endpoint http://127.0.0.1:8080/api/pay' },
      junit: { type: 'string', example: '--junit journey.xml' },
    },
    example: 'wallet-pay-sandbox run examples/journeys/pending-then-paid.yaml --endpoint http://127.0.0.1:8080/api/pay',
  },
} as const satisfies Record<string, ToolSpec>;

/** `scenario`: sets (or with `none` clears) the sticky scenario of a product code. */
async function scenario(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = toolOptions('scenario', SPECS.scenario, args);
  const [id] = positionals;
  if (id === undefined || positionals.length !== 1) {
    throw new UsageError(`scenario takes one scenario ID or "none"; got ${positionals.length === 0 ? 'none' : `"${positionals.join(' ')}"`}; e.g. ${SPECS.scenario.example}.`);
  }
  if (id !== 'none' && !findScenario(id)) {
    throw new UsageError(`scenario: "${id}" is not a scenario ID (wallet-pay-sandbox scenarios lists them); e.g. ${SPECS.scenario.example}.`);
  }
  const productCode = values['product-code'];
  const data = (await askSandbox(toolBaseUrl('scenario', values), '/sandbox/scenario', {
    body: { scenario: id === 'none' ? null : id, ...(productCode ? { product_code: String(productCode) } : {}) },
    asked: `scenario ${id}${productCode ? ` --product-code ${String(productCode)}` : ''}`,
    example: `--product-code with one of the sandbox's product codes, ${SPECS.scenario.example}`,
  })) as Record<string, unknown>;
  const entries = Object.entries(data);
  io.out(entries.length === 0 ? 'sticky scenarios: none' : `sticky scenarios: ${entries.map(([code, s]) => `${code} ${String(s)}`).join(', ')}`);
}

/** One delivery of the desk as `GET /sandbox/callbacks` answers it (the fields the listing shows). */
interface DeskDelivery {
  id: string;
  booking_id: string;
  status: string;
  state: string;
  url: string;
  created_at: string;
  resend_of?: string;
  attempts: Array<{ status?: number; error?: string; answer?: string; at: string }>;
}

/** One line of the listing: id, booking, status, state, attempts, the merchant's last answer, its time. */
export function deliveryLine(d: DeskDelivery): string {
  const last = d.attempts.at(-1);
  const answer = last ? (last.status !== undefined ? `HTTP ${last.status}` : last.error ?? '') : 'not tried yet';
  const tries = `${d.attempts.length} attempt${d.attempts.length === 1 ? '' : 's'}`;
  return [d.id.padEnd(7), d.booking_id, d.status.padEnd(8), d.state.padEnd(9), tries.padEnd(10), answer, last?.at ?? d.created_at, d.resend_of ? `(resends ${d.resend_of})` : '']
    .join('  ')
    .trimEnd();
}

/** `callbacks`: the desk's deliveries (all, dead, one booking's; as lines or JSON), or `resend` one. */
async function callbacks(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = toolOptions('callbacks', SPECS.callbacks, args);
  const url = toolBaseUrl('callbacks', values);
  if (positionals[0] === 'resend') {
    const id = positionals[1];
    if (id === undefined || positionals.length !== 2 || !/^CB-\d+$/.test(id)) {
      throw new UsageError(`callbacks resend takes one delivery ID such as CB-3 (wallet-pay-sandbox callbacks lists them); got ${id === undefined ? 'none' : `"${positionals.slice(1).join(' ')}"`}; e.g. wallet-pay-sandbox callbacks resend CB-3.`);
    }
    const to = values['to'];
    const data = (await askSandbox(url, `/sandbox/callbacks/${encodeURIComponent(id)}/resend`, {
      body: to === undefined ? {} : { url: String(to) },
      asked: `callbacks resend ${id}${to === undefined ? '' : ` --to ${String(to)}`}`,
      example: 'an ID wallet-pay-sandbox callbacks lists, and --to only to the callback\'s own origin or a loopback address',
    })) as { id: string };
    io.out(`resent ${id} as ${data.id}${to === undefined ? '' : ` to ${String(to)}`}`);
    return;
  }
  if (positionals.length > 0) {
    throw new UsageError(`callbacks takes nothing or "resend <ID>"; got "${positionals.join(' ')}"; e.g. ${SPECS.callbacks.example}.`);
  }
  if (values['to'] !== undefined) throw new UsageError(`callbacks: --to goes with resend, e.g. wallet-pay-sandbox callbacks resend CB-3 --to http://127.0.0.1:8080/api/pay/callback.`);
  const query = new URLSearchParams({ ...(values['dead'] ? { state: 'dead' } : {}), ...(values['booking'] ? { booking_id: String(values['booking']) } : {}) });
  const list = (await askSandbox(url, `/sandbox/callbacks${query.size ? `?${query}` : ''}`, { asked: 'callbacks', example: SPECS.callbacks.example })) as DeskDelivery[];
  if (values['json']) {
    io.out(JSON.stringify(list, null, 2));
    return;
  }
  const [one, many] = values['dead'] ? ['dead letter', 'dead letters'] : ['callback delivery', 'callback deliveries'];
  io.out(list.length === 0 ? `no ${many}` : `${list.length} ${list.length === 1 ? one : many}, newest first (resend one: wallet-pay-sandbox callbacks resend ID)`);
  for (const delivery of list) io.out(deliveryLine(delivery));
}

/** `run`: one journey file against the merchant's endpoint and the running sandbox. */
async function run(args: readonly string[], io: Io): Promise<void> {
  const { values, positionals } = toolOptions('run', SPECS.run, args);
  const [file] = positionals;
  if (file === undefined || positionals.length !== 1) {
    throw new UsageError(`run takes one journey file (.json, .yaml or .yml); got ${file === undefined ? 'none' : `"${positionals.join(' ')}"`}; e.g. ${SPECS.run.example}.`);
  }
  const endpoint = values['endpoint'];
  if (typeof endpoint !== 'string' || !/^https?:\/\/[^/]/.test(endpoint)) {
    throw new UsageError(`run needs --endpoint, the merchant's endpoint the element uses${endpoint === undefined ? '' : ` (got "${String(endpoint)}")`}; e.g. ${SPECS.run.example}.`);
  }
  const sandboxUrl = toolBaseUrl('run', values);
  let journey;
  try {
    journey = await loadJourney(file);
  } catch (error) {
    if (error instanceof JourneyError) throw new UsageError(`run: ${error.message}`);
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new UsageError(`run: no journey file "${file}"; e.g. ${SPECS.run.example}.`);
    throw error;
  }
  const result = await runJourney(journey, { endpoint, sandboxUrl, log: io.out });
  if (typeof values['junit'] === 'string') await writeFile(values['junit'], junitReport(result));
  const failed = result.steps.filter((s) => !s.ok).length;
  io.out(`${result.name}: ${result.ok ? 'passed' : 'FAILED'} (${result.steps.length - failed} of ${result.steps.length} steps)`);
  if (!result.ok) throw new ToolFailure(`journey "${result.name}" failed`);
}

/** The tools by name, for the command line's `runTool`. */
export const INTENT_TOOLS: Readonly<Record<'scenario' | 'callbacks' | 'run', (args: readonly string[], io: Io) => Promise<void>>> = { scenario, callbacks, run };
