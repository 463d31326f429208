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

export const ROUTES = ['book', 'status', 'cancel', 'order', 'callback'] as const;
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
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch {
        // The client went away mid-body: nothing to answer and nothing for the merchant's error log.
        throw new Refusal(CODES.INVALID_REQUEST, 'The request body was cut off.');
      }
      const { done, value } = chunk;
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

/** Parses a JSON object holding exactly `fields`, none of its ids holding a control character. */
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
  refuseControlInIds(value);
  return value;
}

/** The body fields that are ids; inside `order`, `id` and any name ending in `_id` or `Id` are ids too. */
const TOP_LEVEL_IDS = ['booking_id', 'correlation_id'];
/** How deep the order is searched for ids: deeper orders are refused by the routes anyway (limits.ts). */
const ID_SEARCH_DEPTH = 33;

/**
 * Refuses (`IP-421`, HTTP 400, naming the field) an id holding a control character (U+0000 to U+001F,
 * U+007F): no id has one, and a NUL reaching a PostgreSQL store or lookup is an error there, never an
 * answer. Checked while parsing, before any route reads the store or calls `lookupOrder`.
 */
function refuseControlInIds(body: Record<string, unknown>): void {
  for (const name of TOP_LEVEL_IDS) refuseControl(body[name], name);
  const stack: Array<[unknown, string, number]> = [[body.order, 'order', 1]];
  while (stack.length > 0) {
    const [item, path, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object' || depth > ID_SEARCH_DEPTH) continue;
    for (const [key, child] of Object.entries(item as Record<string, unknown>)) {
      const childPath = Array.isArray(item) ? `${path}[${key}]` : `${path}.${key}`;
      if (!Array.isArray(item) && isIdName(key)) refuseControl(child, childPath);
      stack.push([child, childPath, depth + 1]);
    }
  }
}

function isIdName(key: string): boolean {
  return key === 'id' || key.endsWith('_id') || key.endsWith('Id');
}

function refuseControl(value: unknown, field: string): void {
  if (typeof value !== 'string') return;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x1f || code === 0x7f) {
      throw new Refusal(
        CODES.MALFORMED_VALUE,
        `"${field}" must not contain a control character (U+0000 to U+001F, U+007F); got U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${i}.`,
      );
    }
  }
}

/**
 * How deep `value` nests (a scalar is 0, `{}` is 1), counting no further than `limit + 1`. A loop, not
 * recursion: the point is to refuse a 5,000-deep order before a recursive walk overflows the stack.
 */
export function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (deepest > limit) return deepest;
    for (const child of Object.values(item as Record<string, unknown>)) stack.push([child, level]);
  }
  return deepest;
}

/**
 * Checks the content type: JSON, in UTF-8 (the only charset JSON has); another charset is refused
 * with 415, as the sandbox does, rather than read as UTF-8.
 */
export function checkContentType(header: string | null): void {
  const [type = '', ...params] = (header ?? '').split(';').map((part) => part.trim());
  if (type.toLowerCase() !== 'application/json') {
    throw new Refusal(CODES.UNSUPPORTED_MEDIA_TYPE, `Send the body as application/json; got ${type ? `"${type.toLowerCase()}"` : 'no content type'}.`);
  }
  for (const param of params) {
    const [name = '', value = ''] = param.split('=').map((part) => part.trim());
    if (name.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new Refusal(CODES.UNSUPPORTED_MEDIA_TYPE, `Send the body in UTF-8; got charset "${charset}".`);
    }
  }
}

/** Every answer: JSON, never cached (it carries payment state), never sniffed as another type. */
export const JSON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

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
