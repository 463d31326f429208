/**
 * The handler's edges: routing by the last path segment, reading a bounded UTF-8 body, parsing the
 * element's small JSON bodies, and the success and failure envelopes every answer uses.
 */
import {
  CODES,
  HTTP_STATUS_OF_CODE,
  type FailureEnvelope,
  type ResponseCode,
  type SuccessEnvelope,
} from '../protocol/contract.js';
import { describeValue, isRecord } from '../protocol/values.js';

/** An answer the handler gives as a failure envelope. */
export class Refusal extends Error {
  constructor(
    readonly code: ResponseCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const ROUTES = ['book', 'status', 'cancel', 'callback'] as const;
export type Route = (typeof ROUTES)[number];

export function lastSegment(url: string): Route | undefined {
  const segments = new URL(url).pathname.split('/').filter((s) => s.length > 0);
  const last = segments[segments.length - 1];
  return (ROUTES as readonly string[]).includes(last ?? '') ? (last as Route) : undefined;
}

export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > limit) throw tooLarge(limit);
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        throw tooLarge(limit);
      }
      chunks.push(value);
    }
  }
  if (size === 0) throw new Refusal(CODES.INVALID_REQUEST, 'The body is empty; send a JSON object.');
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Refusal(CODES.INVALID_REQUEST, 'The body is not valid UTF-8.');
  }
}

function tooLarge(limit: number): Refusal {
  return new Refusal(CODES.PAYLOAD_TOO_LARGE, `The body is larger than ${limit} bytes.`);
}

/** Parses a JSON object holding exactly `fields`. */
export function parseObject(text: string, fields: readonly string[], optional: readonly string[] = []): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Refusal(CODES.INVALID_REQUEST, 'The body is not valid JSON.');
  }
  if (!isRecord(value)) {
    throw new Refusal(CODES.INVALID_REQUEST, `The body must be a JSON object with ${fields.join(' and ')}; got ${describeValue(value)}.`);
  }
  const missing = fields.filter((name) => !(name in value));
  if (missing.length > 0) throw new Refusal(CODES.INVALID_REQUEST, `Missing field(s): ${missing.join(', ')}.`);
  const extra = Object.keys(value).filter((name) => !fields.includes(name) && !optional.includes(name));
  if (extra.length > 0) {
    throw new Refusal(
      CODES.INVALID_REQUEST,
      `Unexpected field(s): ${extra.map((n) => JSON.stringify(n)).join(', ')}; send only ${fields.join(' and ')}.`,
    );
  }
  return value;
}

/** Object keys sorted at every depth, so two spellings of one order give one fingerprint. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isRecord(value)) {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical(value[key])]));
  }
  return value;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function success<T>(message: string, data: T, code: ResponseCode = CODES.OK): Response {
  const body: SuccessEnvelope<T> = { code, message, data };
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS });
}

export function failure(refusal: Refusal): Response {
  const body: FailureEnvelope = { code: refusal.code, error_message: refusal.message };
  return new Response(JSON.stringify(body), {
    status: HTTP_STATUS_OF_CODE[refusal.code] ?? 500,
    headers: { ...JSON_HEADERS, ...refusal.headers },
  });
}
