/**
 * The checker's HTTP client: every request to the proxy is recorded with what was sent and what came
 * back, so a failing clause can show both, and the transport clauses can inspect every answer.
 */

/** One request to the proxy and its answer. */
export interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  status: number;
  answerHeaders: Headers;
  text: string;
  /** The answer's JSON, or undefined when it is not JSON. */
  json: unknown;
  /** Set when no answer came (connection refused, timeout). */
  error?: string;
}

/** Options of one request. */
export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A value is sent as JSON; a string as it is. */
  body?: unknown;
  contentType?: string | null;
}

/** How long one request may take before it counts as unanswered (default of `requestTimeoutMs`). */
export const REQUEST_TIMEOUT_MS = 10_000;
/** The most of an answer the checker reads: a proxy's answers are a few hundred bytes. */
export const MAX_ANSWER_BYTES = 256 * 1024;
/** The longest Retry-After the checker honours for an IP-503 (the proxy's store briefly unavailable). */
const MAX_RETRY_AFTER_MS = 3_000;
/** After this many answers cut for their size or time, the endpoint is not asked again in this run. */
const CUTS_BEFORE_GIVING_UP = 2;

/** Control characters (C0 with the line breaks, DEL, C1), line separators and the bidirectional overrides: any could rewrite a terminal line. */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Text from an endpoint made safe to print: every control character escaped as `\u001b`. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** An HTML page reduced to its words: styles, scripts and comments dropped, then every tag. */
export function pageText(text: string): string {
  if (!/<(!doctype|html|head|body|style|script|div|p|h1)\b/i.test(text)) return text;
  return text
    .replace(/<(style|script)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ');
}

/** Shortens a text for a one-line report (an HTML page to its words), control characters escaped. */
export function clip(text: string, max = 300): string {
  const flat = pageText(text).replace(/\s+/g, ' ').trim();
  return printable(flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat);
}

/** Why an answer was cut short. */
class AnswerCut extends Error {}

/** Reads at most `MAX_ANSWER_BYTES` of a body before `deadline`; more, or later, cuts it. */
export async function readCapped(response: Response, deadline: number, maxBytes = MAX_ANSWER_BYTES): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnswerCut(`the answer's body did not end in time (${size} bytes so far)`)), Math.max(0, deadline - Date.now()));
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), late]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new AnswerCut(`the answer's body is longer than ${maxBytes} bytes; the checker stopped reading`);
      chunks.push(value);
    }
  } catch (error) {
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

/** Sends requests and keeps every exchange. */
export class Recorder {
  readonly log: Exchange[] = [];
  /** Answers cut for their size or time so far; at `CUTS_BEFORE_GIVING_UP` the endpoint is given up. */
  private cuts: string[] = [];

  constructor(private readonly timeoutMs = REQUEST_TIMEOUT_MS) {}

  /** Why the endpoint is no longer asked, once it sent endless or endlessly slow answers. */
  get givenUp(): string | undefined {
    return this.cuts.length >= CUTS_BEFORE_GIVING_UP ? this.cuts.join('; then ') : undefined;
  }

  async send(url: string, options: SendOptions = {}, retried = false): Promise<Exchange> {
    const method = options.method ?? 'POST';
    const body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    if (contentType !== null && method !== 'GET' && method !== 'HEAD') headers['content-type'] = contentType;
    const exchange: Exchange = { method, url, headers, body, status: 0, answerHeaders: new Headers(), text: '', json: undefined };
    if (this.givenUp !== undefined) {
      exchange.error = `not sent: the endpoint was given up earlier in this run (${this.givenUp})`;
      this.log.push(exchange);
      return exchange;
    }
    const deadline = Date.now() + this.timeoutMs;
    try {
      // A redirect is never followed (to another host least of all): it is judged as an answer.
      const response = await fetch(url, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      exchange.status = response.status;
      exchange.answerHeaders = response.headers;
      exchange.text = await readCapped(response, deadline);
      try {
        exchange.json = JSON.parse(exchange.text);
      } catch {
        exchange.json = undefined;
      }
    } catch (error) {
      const timedOut = error instanceof AnswerCut || (error as Error)?.name === 'TimeoutError';
      exchange.error = error instanceof AnswerCut ? error.message : timedOut ? `no answer within ${this.timeoutMs} ms` : describeError(error);
      if (timedOut || error instanceof AnswerCut) this.cuts.push(`${method} ${new URL(url).pathname}: ${exchange.error}`);
    }
    // A server that answers a too-large body early closes that connection; a request that happened to
    // go out on it again is no fault of the proxy's, so it is sent once more on a fresh one.
    if (!retried && exchange.error !== undefined && /ECONNRESET|other side closed|socket/i.test(exchange.error)) {
      return this.send(url, options, true);
    }
    // A proxy whose store is briefly unavailable answers IP-503 with Retry-After: a client retries, so
    // the checker does too, once, and judges the second answer.
    if (!retried && exchange.status === 503 && codeOf(exchange) === 'IP-503') {
      const seconds = Number(exchange.answerHeaders.get('retry-after') ?? '1');
      await new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds * 1000) || 1000)));
      return this.send(url, options, true);
    }
    this.log.push(exchange);
    return exchange;
  }
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { message?: unknown } | undefined;
  return `${error.message}${cause ? ` (${String(cause.message ?? cause)})` : ''}`;
}

/** The envelope's `code`, when there is one. */
export function codeOf(exchange: Exchange): string | undefined {
  const json = exchange.json as { code?: unknown } | undefined;
  return typeof json?.code === 'string' ? json.code : undefined;
}

/** The success envelope's `data`, when there is one. */
export function dataOf(exchange: Exchange): Record<string, unknown> {
  const json = exchange.json as { data?: unknown } | undefined;
  return json && typeof json.data === 'object' && json.data !== null ? (json.data as Record<string, unknown>) : {};
}

/** "sent: POST /book {...} [Idempotency-Key: ...]; got: 200 {...}", for a failure's detail. */
export function describe(exchange: Exchange): string {
  const path = new URL(exchange.url).pathname;
  const key = exchange.headers['Idempotency-Key'];
  const type = exchange.headers['content-type'];
  const sent = [
    `${exchange.method} ${path}`,
    type && type !== 'application/json' ? `(Content-Type: ${type})` : '',
    key !== undefined ? `(Idempotency-Key: ${key})` : '',
    exchange.body ? clip(exchange.body, 200) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const got = exchange.error ? `no answer: ${exchange.error}` : `${exchange.status} ${clip(exchange.text)}`;
  return `sent: ${sent}; got: ${got}`;
}
