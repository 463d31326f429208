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

/** How long one request may take before it counts as unanswered. */
export const REQUEST_TIMEOUT_MS = 20_000;
/** The longest Retry-After the checker honours for an IP-503 (the proxy's store briefly unavailable). */
const MAX_RETRY_AFTER_MS = 3_000;

/** Shortens a text for a one-line report. */
export function clip(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}… (${text.length} chars)` : flat;
}

/** Sends requests and keeps every exchange. */
export class Recorder {
  readonly log: Exchange[] = [];

  async send(url: string, options: SendOptions = {}, retried = false): Promise<Exchange> {
    const method = options.method ?? 'POST';
    const body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const headers: Record<string, string> = { ...options.headers };
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    if (contentType !== null && method !== 'GET' && method !== 'HEAD') headers['content-type'] = contentType;
    const exchange: Exchange = { method, url, headers, body, status: 0, answerHeaders: new Headers(), text: '', json: undefined };
    try {
      const response = await fetch(url, {
        method,
        headers,
        ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      exchange.status = response.status;
      exchange.answerHeaders = response.headers;
      exchange.text = await response.text();
      try {
        exchange.json = JSON.parse(exchange.text);
      } catch {
        exchange.json = undefined;
      }
    } catch (error) {
      exchange.error = error instanceof Error ? `${error.message}${error.cause ? ` (${String((error.cause as Error).message ?? error.cause)})` : ''}` : String(error);
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
