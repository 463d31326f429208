/**
 * Reads a JSON object's top-level members together with the exact source text of each value.
 *
 * A signature covers values "as they are sent": `"amount": 1000.0` is signed as `1000.0`, while
 * `JSON.parse` would hand back the number `1000`, which JavaScript writes as `1000`. Verifying a
 * callback therefore needs the raw text of each value, which this module provides. It relies on
 * `JSON.parse` for validity, so the scanner below only has to find boundaries in text already known
 * to be well-formed JSON.
 */

/** Why a text could not be read as a JSON object. */
export type RawJsonErrorReason = 'malformed_json' | 'not_an_object' | 'duplicate_member';

/** An error with a stable `reason` code beside its human `message` (the server kit's refusals). */
export class ReasonedError<Reason extends string> extends Error {
  /** A stable code for the problem. */
  readonly reason: Reason;
  constructor(reason: Reason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Thrown when the text is not a JSON object whose members can be read one by one. */
export class RawJsonError extends ReasonedError<RawJsonErrorReason> {
  override name = 'RawJsonError';
}

/** One top-level member of a JSON object. */
export interface RawJsonMember {
  /** The parsed value, as `JSON.parse` gives it. */
  value: unknown;
  /** The value's exact source text, e.g. `1000.0` or `"SHOP01"` (quotes and escapes kept). */
  raw: string;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Parses `text` as a JSON object and returns its top-level members by name, each with its parsed
 * value and its source text. Refuses malformed JSON, anything but an object, and a name that occurs
 * twice (the two readings of such an object would disagree on what was signed).
 */
export function readRawJsonObject(text: string): Map<string, RawJsonMember> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new RawJsonError('malformed_json', `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const kind = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new RawJsonError('not_an_object', `The body must be a JSON object; got ${kind}.`);
  }

  const members = new Map<string, RawJsonMember>();
  let i = skipWhitespace(text, 0);
  // JSON.parse accepted it and it is an object, so the first significant character is `{`.
  i = skipWhitespace(text, i + 1);
  if (text[i] === '}') return members;
  for (;;) {
    const keyEnd = endOfString(text, i);
    const name = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWhitespace(text, keyEnd);
    i = skipWhitespace(text, i + 1); // past ':'
    const valueEnd = endOfValue(text, i);
    const raw = text.slice(i, valueEnd);
    if (members.has(name)) {
      throw new RawJsonError('duplicate_member', `The body names the field "${name}" more than once.`);
    }
    members.set(name, { value: (parsed as Record<string, unknown>)[name], raw });
    i = skipWhitespace(text, valueEnd);
    if (text[i] === '}') return members;
    i = skipWhitespace(text, i + 1); // past ','
  }
}

function skipWhitespace(text: string, i: number): number {
  while (i < text.length && WHITESPACE.has(text[i] as string)) i++;
  return i;
}

/** Index just past the string starting at `i` (which holds its opening quote). */
function endOfString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return text.length;
}

/** Index just past the value starting at `i`. */
function endOfValue(text: string, i: number): number {
  const first = text[i];
  if (first === '"') return endOfString(text, i);
  if (first === '{' || first === '[') {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        j = endOfString(text, j) - 1;
      } else if (c === '{' || c === '[') {
        depth++;
      } else if (c === '}' || c === ']') {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return text.length;
  }
  // Numbers, true, false, null: run until the next delimiter.
  let j = i;
  while (j < text.length && text[j] !== ',' && text[j] !== '}' && !WHITESPACE.has(text[j] as string)) j++;
  return j;
}
