/**
 * Journey files: a payment test written as data (JSON, or YAML with the `yaml` package), run against
 * a merchant's endpoint (the element's contract: `{endpoint}/book`, `/status`, `/cancel`) and the
 * sandbox that merchant talks to. Steps book, pay through a scenario, move the clock, expect a
 * callback or a status, and repeat; `${name.path}` refers to an earlier step's answer, `${env.NAME}`
 * to the environment and `${i}` to a repeat's round. `headers` (on the journey, a step, or the target)
 * go with every request to the merchant's endpoint, never to the sandbox: the shopper's session
 * cookie, so a shop whose `lookupOrder` checks the login books as it would for the signed-in shopper.
 */
import { readFile } from 'node:fs/promises';
import { parseDuration } from '../clock.js';

/** Request headers for the merchant's endpoint, e.g. `{ "cookie": "session=${env.SHOP_SESSION}" }`. */
export type JourneyHeaders = Record<string, string>;

/**
 * One step of a journey; exactly one of the step keys, with an optional `name`, `as` and `headers`
 * (this step's requests to the merchant; a header named here replaces the journey's of that name).
 */
export type JourneyStep = Record<string, unknown> & { name?: string; as?: string; headers?: JourneyHeaders };

/** A journey, as a file holds it. */
export interface Journey {
  name?: string;
  /** Sent with every request to the merchant's endpoint (book, status, cancel, expectStatus); references resolve. */
  headers?: JourneyHeaders;
  steps: JourneyStep[];
}

/** Where a journey runs. */
export interface JourneyTarget {
  /** The merchant's endpoint the element would use, e.g. `http://127.0.0.1:8080/api/pay`. */
  endpoint: string;
  /** The sandbox's `{base_url}`; default `http://127.0.0.1:4010`. */
  sandboxUrl?: string;
  /** Sent with every request to the merchant's endpoint; the journey's and a step's headers replace these by name. */
  headers?: JourneyHeaders;
  /** Values for `${env.NAME}`; default `process.env`. */
  env?: Record<string, string | undefined>;
  /** Longest wait of an `expect…` step without its own `within`; default 15 s. */
  waitMs?: number;
  /** One line per step; default silent. */
  log?: (line: string) => void;
}

/** How one step went. */
export interface StepResult {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

/** How a journey went. */
export interface JourneyResult {
  name: string;
  ok: boolean;
  steps: StepResult[];
}

/** A journey file that cannot run as written; the message names the step and the fix. */
export class JourneyError extends Error {
  override name = 'JourneyError';
}

/** The keys a step may have beside its one kind. */
const STEP_OPTIONS = ['name', 'as', 'headers'];

const KINDS = ['book', 'pay', 'cancel', 'status', 'clock', 'scenario', 'expectCallback', 'expectStatus', 'repeat'] as const;
type Kind = (typeof KINDS)[number];

/** The optional `yaml` package, imported only for a YAML journey. */
const importYaml = (): Promise<{ parse(text: string): unknown }> => import('yaml');

/**
 * Reads a journey file: `.json`, or `.yaml`/`.yml` through the optional `yaml` package (`yamlModule`
 * replaces that import, e.g. to show the message a project without it gets).
 */
export async function loadJourney(file: string, yamlModule = importYaml): Promise<Journey> {
  const text = await readFile(file, 'utf8');
  let data: unknown;
  if (/\.ya?ml$/i.test(file)) {
    let yaml: { parse(text: string): unknown };
    try {
      yaml = await yamlModule();
    } catch {
      throw new JourneyError(`${file} is YAML, which needs the yaml package: npm install --save-dev yaml (or write the journey as JSON).`);
    }
    data = yaml.parse(text);
  } else {
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new JourneyError(`${file} is not JSON: ${(error as Error).message}`);
    }
  }
  return checkJourney(data, file);
}

/** Checks a journey's shape, so a typo fails before any request with the step's place in the file. */
export function checkJourney(data: unknown, where = 'journey'): Journey {
  const journey = data as Journey;
  if (typeof data !== 'object' || data === null || !Array.isArray(journey.steps) || journey.steps.length === 0) {
    throw new JourneyError(`${where}: a journey is an object with a non-empty "steps" array.`);
  }
  checkHeaders(journey.headers, `${where}: the journey's`);
  const walk = (steps: unknown[], path: string) =>
    steps.forEach((step, index) => {
      const place = `${where}: ${path}step ${index + 1}`;
      if (typeof step !== 'object' || step === null) throw new JourneyError(`${place} is not an object.`);
      checkHeaders((step as JourneyStep).headers, `${place}'s`);
      const kinds = Object.keys(step).filter((key) => !STEP_OPTIONS.includes(key));
      if (kinds.length !== 1 || !KINDS.includes(kinds[0] as Kind)) {
        throw new JourneyError(`${place} has ${kinds.length === 0 ? 'no step' : `"${kinds.join('", "')}"`}; a step is exactly one of ${KINDS.join(', ')}.`);
      }
      if (kinds[0] === 'repeat') {
        const repeat = (step as { repeat: { times?: unknown; steps?: unknown } }).repeat;
        if (!Number.isInteger(repeat?.times) || (repeat.times as number) < 1 || !Array.isArray(repeat.steps)) {
          throw new JourneyError(`${place}: repeat needs "times" (a whole number of at least 1) and "steps".`);
        }
        walk(repeat.steps, `${path}step ${index + 1} > `);
      }
    });
  walk(journey.steps, '');
  return journey;
}

/**
 * Headers are an object of names and strings: a list or a number would reach fetch as something
 * other than what the file says, so the shape is checked before any request (and again once
 * references resolved, as `${ref}` may stand for an object).
 */
function checkHeaders(headers: unknown, place: string): void {
  if (headers === undefined) return;
  const entries = typeof headers === 'object' && headers !== null && !Array.isArray(headers) ? Object.entries(headers) : undefined;
  const bad = entries?.find(([name, value]) => typeof value !== 'string' || !/^[!#$%&'*+.^_`|~\w-]+$/.test(name));
  if (!entries || bad) {
    const what = bad ? `"${bad[0]}": ${JSON.stringify(bad[1])}` : JSON.stringify(headers);
    throw new JourneyError(`${place} "headers" must be an object of header names and string values, e.g. {"cookie": "session=\${env.SHOP_SESSION}"}; got ${what}.`);
  }
}

interface Scope {
  saved: Record<string, unknown>;
  env: Record<string, string | undefined>;
  i?: number;
}

function lookup(path: string, scope: Scope): unknown {
  const [head = '', ...rest] = path.split('.');
  let value: unknown = head === 'env' ? scope.env : head === 'i' ? scope.i : scope.saved[head];
  if (head !== 'env' && head !== 'i' && !Object.hasOwn(scope.saved, head)) {
    throw new JourneyError(`\${${path}}: no earlier step saved "${head}" (add "as": "${head}" to it).`);
  }
  if (head === 'env') {
    const name = rest.join('.');
    if (scope.env[name] === undefined) throw new JourneyError(`\${${path}}: the environment has no ${name}.`);
    return scope.env[name];
  }
  for (const key of rest) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) throw new JourneyError(`\${${path}}: "${key}" is not in the answer.`);
    value = (value as Record<string, unknown>)[key];
  }
  if (value === undefined) throw new JourneyError(`\${${path}} is not set.`);
  return value;
}

/** Replaces `${...}` references; a string that is one reference keeps the value's type. */
export function resolve(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]+)\}$/.exec(value);
    if (whole) return lookup(whole[1]!.trim(), scope);
    return value.replace(/\$\{([^}]+)\}/g, (_match, path: string) => String(lookup(path.trim(), scope)));
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, scope));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, scope)]));
  }
  return value;
}

/** Layers of headers in order, a later one replacing an earlier one's header of the same name (any case). */
function mergeHeaders(...layers: Array<JourneyHeaders | undefined>): JourneyHeaders {
  const merged = new Headers();
  for (const layer of layers) for (const [name, value] of Object.entries(layer ?? {})) merged.set(name, value);
  return Object.fromEntries(merged);
}

async function call(url: string, init: { json?: unknown; headers?: JourneyHeaders } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const { json, headers } = init;
  const response = await fetch(url, {
    ...(json !== undefined ? { method: 'POST', body: JSON.stringify(json) } : {}),
    headers: mergeHeaders({ 'content-type': 'application/json' }, headers),
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new JourneyError(`${url} answered ${response.status} with something that is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body };
}

/** Waits until `check` returns a value, polling, at most `ms`; the error says what was last seen. */
async function within<T>(ms: number, what: string, check: () => Promise<{ value?: T; seen: string }>): Promise<T> {
  const deadline = Date.now() + ms;
  let seen = '';
  for (;;) {
    const result = await check();
    if (result.value !== undefined) return result.value;
    seen = result.seen;
    if (Date.now() >= deadline) throw new JourneyError(`${what} not seen within ${ms} ms; last seen: ${seen}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Polls for the whole of `ms` and fails as soon as `check` finds a match: "none within T" is only
 * known when T is over, so a count of 0 never passes early.
 */
async function noneWithin(ms: number, what: string, check: () => Promise<{ matching: unknown[]; seen: string }>): Promise<[]> {
  const started = Date.now();
  for (;;) {
    const { matching, seen } = await check();
    const elapsed = Date.now() - started;
    if (matching.length > 0) throw new JourneyError(`expected no ${what} within ${ms} ms, but the desk had ${seen} after ${elapsed} ms.`);
    if (elapsed >= ms) return [];
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, ms - elapsed)));
  }
}

function text(value: unknown, field: string, kind: string): string {
  if (typeof value !== 'string' || value === '') throw new JourneyError(`${kind} needs "${field}" (a string).`);
  return value;
}

function ok(answer: { status: number; body: Record<string, unknown> }, what: string): Record<string, unknown> {
  if (answer.status < 200 || answer.status > 299) throw new JourneyError(`${what} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer.body;
}

/** Where a step runs; `headers` are this step's for the merchant's endpoint (the target's, the journey's, the step's). */
type StepTarget = Required<Pick<JourneyTarget, 'endpoint' | 'sandboxUrl' | 'waitMs' | 'headers'>>;

type Runner = (arg: Record<string, unknown>, target: StepTarget) => Promise<unknown>;

const STEPS: Record<Exclude<Kind, 'repeat'>, Runner> = {
  book: async (arg, t) =>
    call(`${t.endpoint}/book`, {
      json: { channel: arg['channel'] ?? 'app', order: arg['order'], ...(arg['handoff'] ? { handoff: true } : {}) },
      headers: { ...t.headers, 'idempotency-key': typeof arg['key'] === 'string' ? arg['key'] : `journey-${crypto.randomUUID()}` },
    }).then((a) => ok(a, 'book')),
  cancel: async (arg, t) =>
    ok(await call(`${t.endpoint}/cancel`, { json: { booking_id: arg['booking'], correlation_id: arg['correlation'] }, headers: t.headers }), 'cancel'),
  status: async (arg, t) =>
    ok(await call(`${t.endpoint}/status`, { json: { booking_id: arg['booking'], correlation_id: arg['correlation'] }, headers: t.headers }), 'status'),
  pay: async (arg, t) => {
    const booking = text(arg['booking'], 'booking', 'pay');
    const form = new URLSearchParams({
      mpin: String(arg['mpin'] ?? '1234'),
      method: String(arg['method'] ?? 'wallet_balance'),
      scenario: typeof arg['scenario'] === 'string' ? arg['scenario'] : '',
    });
    const response = await fetch(`${t.sandboxUrl}/web/pay/${encodeURIComponent(booking)}/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    await response.arrayBuffer();
    if (response.status !== 303) throw new JourneyError(`pay: the payment page answered ${response.status}, not a redirect to the merchant.`);
    return { location: response.headers.get('location') };
  },
  clock: async (arg, t) => ok(await call(`${t.sandboxUrl}/sandbox/clock`, { json: arg }), 'clock'),
  scenario: async (arg, t) => ok(await call(`${t.sandboxUrl}/sandbox/scenario`, { json: arg }), 'scenario'),
  expectCallback: async (arg, t) => {
    const booking = text(arg['booking'], 'booking', 'expectCallback');
    const count = (arg['count'] as number | undefined) ?? 1;
    if (!Number.isInteger(count) || count < 0) throw new JourneyError(`expectCallback: "count" is a whole number of at least 0; got ${JSON.stringify(arg['count'])}.`);
    // "No callback" means none sent, answered or not, unless the step names a state; a count of n
    // waits for delivered ones unless it names another.
    const state = (arg['state'] as string | undefined) ?? (count === 0 ? undefined : 'delivered');
    const ms = typeof arg['within'] === 'string' ? parseDuration(arg['within']) : t.waitMs;
    const what = `${arg['status'] ? `${String(arg['status'])} ` : ''}callback(s)${state ? ` (${state})` : ''} of ${booking}`;
    const desk = async () => {
      const answer = ok(await call(`${t.sandboxUrl}/sandbox/callbacks?booking_id=${encodeURIComponent(booking)}`), 'the callback desk');
      const all = answer['data'] as Array<{ state: string; status: string }>;
      const matching = all.filter((d) => (state === undefined || d.state === state) && (arg['status'] === undefined || d.status === arg['status']));
      return { matching, seen: JSON.stringify(all.map((d) => `${d.status}:${d.state}`)) };
    };
    if (count === 0) return noneWithin(ms, what, desk);
    return within(ms, `${count} ${what}`, async () => {
      const { matching, seen } = await desk();
      return { ...(matching.length >= count ? { value: matching } : {}), seen };
    });
  },
  expectStatus: async (arg, t) => {
    const booking = text(arg['booking'], 'booking', 'expectStatus');
    const want = text(arg['status'], 'status', 'expectStatus');
    const ms = typeof arg['within'] === 'string' ? parseDuration(arg['within']) : t.waitMs;
    const merchant = (arg['via'] ?? 'merchant') === 'merchant';
    return within(ms, `status ${want} of ${booking} (${merchant ? 'the merchant' : 'the sandbox'})`, async () => {
      const answer = merchant
        ? await call(`${t.endpoint}/status`, { json: { booking_id: booking, correlation_id: arg['correlation'] }, headers: t.headers })
        : await call(`${t.sandboxUrl}/sandbox/bookings/${encodeURIComponent(booking)}`);
      const status = (answer.body['data'] as { status?: string } | undefined)?.status;
      return { ...(status === want ? { value: answer.body } : {}), seen: `${answer.status} ${status ?? JSON.stringify(answer.body).slice(0, 200)}` };
    });
  },
};

/** Runs a journey; a failed step ends it (the rest are reported as not run). */
export async function runJourney(journey: Journey, target: JourneyTarget): Promise<JourneyResult> {
  checkJourney(journey);
  checkHeaders(target.headers, "the target's");
  const t = { endpoint: target.endpoint.replace(/\/+$/, ''), sandboxUrl: (target.sandboxUrl ?? 'http://127.0.0.1:4010').replace(/\/+$/, ''), waitMs: target.waitMs ?? 15_000 };
  const log = target.log ?? (() => undefined);
  const results: StepResult[] = [];
  const scope: Scope = { saved: {}, env: target.env ?? process.env };
  let failed = false;
  const runSteps = async (steps: JourneyStep[], prefix: string): Promise<void> => {
    for (const [index, step] of steps.entries()) {
      const kind = Object.keys(step).find((key) => !STEP_OPTIONS.includes(key)) as Kind;
      const name = `${prefix}${index + 1} ${step.name ?? kind}`;
      if (failed) {
        results.push({ name, ok: false, ms: 0, error: 'not run: an earlier step failed' });
        continue;
      }
      if (kind === 'repeat') {
        const { times, steps: inner } = step['repeat'] as { times: number; steps: JourneyStep[] };
        for (let round = 1; round <= times; round++) {
          scope.i = round;
          await runSteps(inner, `${prefix}${index + 1}.${round}.`);
        }
        delete scope.i;
        continue;
      }
      const started = Date.now();
      try {
        const raw = step[kind];
        const shorthand =
          kind === 'clock' && typeof raw === 'string' ? { advance: raw } : kind === 'scenario' && (typeof raw === 'string' || raw === null) ? { scenario: raw } : raw;
        const arg = resolve(shorthand, scope);
        const headers = [journey.headers, step.headers].map((layer) => resolve(layer, scope) as JourneyHeaders | undefined);
        headers.forEach((layer, n) => checkHeaders(layer, n === 0 ? "the journey's" : "the step's"));
        const answer = await STEPS[kind](arg as Record<string, unknown>, { ...t, headers: mergeHeaders(target.headers, ...headers) });
        if (step.as) scope.saved[step.as] = answer;
        results.push({ name, ok: true, ms: Date.now() - started });
        log(`ok   ${name}`);
      } catch (error) {
        failed = true;
        const message = error instanceof Error ? error.message : String(error);
        results.push({ name, ok: false, ms: Date.now() - started, error: message });
        log(`FAIL ${name}: ${message}`);
      }
    }
  };
  await runSteps(journey.steps, '');
  return { name: journey.name ?? 'journey', ok: !failed, steps: results };
}

function xml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A JUnit XML report of a journey: one test case per step. */
export function junitReport(result: JourneyResult): string {
  const failures = result.steps.filter((s) => !s.ok).length;
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const cases = result.steps
    .map((s) => {
      const head = `    <testcase classname="${xml(result.name)}" name="${xml(s.name)}" time="${seconds(s.ms)}"`;
      return s.ok ? `${head}/>` : `${head}>\n      <failure message="${xml(s.error ?? 'failed')}"/>\n    </testcase>`;
    })
    .join('\n');
  const total = result.steps.reduce((sum, s) => sum + s.ms, 0);
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="${xml(result.name)}" tests="${result.steps.length}" failures="${failures}" time="${seconds(total)}">
${cases}
  </testsuite>
</testsuites>
`;
}
