/**
 * A reader of the raw text of a JSON object's top-level members. `JSON.parse` turns `1000.0` into
 * `1000`, but a signature is made over the value as it was sent, so the sandbox needs the number's
 * text as it stands in the body. It also refuses duplicate keys, which `JSON.parse` silently resolves
 * to the last one (a signature and a booking must never see two different values of one field).
 */

/** Thrown when the text is not a JSON object whose top-level keys are unique. */
export class RawJsonError extends Error {
  override name = 'RawJsonError';
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * Returns the raw text of every top-level member of a JSON object, keyed by member name.
 * The text must already be valid JSON (parse it first); this only slices it.
 */
export function topLevelMemberTexts(text: string): Map<string, string> {
  let i = 0;
  const skipWhitespace = () => {
    while (i < text.length && WHITESPACE.has(text[i]!)) i++;
  };
  const skipString = () => {
    // i is on the opening quote.
    i++;
    while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    if (i >= text.length) throw new RawJsonError('Unterminated string.');
    i++;
  };
  const skipValue = () => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === '{' || c === '[') {
      let depth = 0;
      do {
        const d = text[i];
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        i++;
      } while (depth > 0 && i < text.length);
      if (depth !== 0) throw new RawJsonError('Unbalanced brackets.');
      return;
    }
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) {
      i = NUMBER.lastIndex;
      return;
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    }
    throw new RawJsonError(`Unexpected character at ${i}.`);
  };

  const members = new Map<string, string>();
  skipWhitespace();
  if (text[i] !== '{') throw new RawJsonError('Not a JSON object.');
  i++;
  skipWhitespace();
  if (text[i] === '}') return members;
  for (;;) {
    skipWhitespace();
    if (text[i] !== '"') throw new RawJsonError(`Expected a member name at ${i}.`);
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    if (members.has(key)) throw new RawJsonError(`The field "${key}" appears twice.`);
    skipWhitespace();
    if (text[i] !== ':') throw new RawJsonError(`Expected ":" at ${i}.`);
    i++;
    skipWhitespace();
    const valueStart = i;
    skipValue();
    members.set(key, text.slice(valueStart, i));
    skipWhitespace();
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '}') return members;
    throw new RawJsonError(`Expected "," or "}" at ${i}.`);
  }
}
