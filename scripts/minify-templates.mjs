// A Vite plugin that minifies the text of Lit's tagged templates at build time, so the source can keep
// readable multi-line templates and CSS: `html`…`` and `svg`…`` lose the whitespace that only lays out
// the source, `css`…`` is minified. Only the template texts change: every `${…}` expression stays
// where it was, byte for byte. Templates are found by their tag's name (`html`, `svg`, `css`, as
// imported from 'lit'); a template that is not Lit's but uses one of those names is minified too.
//
// HTML rules (the JSX convention, which formatted Lit templates follow):
// - a whitespace run that holds a line break and touches a tag (after `>` or before `<`), or starts or
//   ends the template, is dropped: it is the source's indentation, not text;
// - any other whitespace run in text becomes one space (`${a} ${b}`, `Pay   now`);
// - inside a tag, runs between attributes become one space and runs before `>` or `/>` are dropped;
// - quoted attribute values, comments and the content of <pre>, <textarea>, <script> and <style> are
//   kept as they are.
// So two inline elements written on two lines (`<b>a</b>⏎<i>b</i>`) touch; write the space on the line.
//
// CSS rules: comments are dropped; strings are kept; whitespace runs are dropped at the ends and next
// to `{ } ; , : > !` (only after `:`, never before it: `a :hover` is a descendant selector); other runs
// become one space (`0 1.25rem`, `calc(1px + 2px)`); a `;` before `}` is dropped.
import { parseAst } from 'vite';
import { RolldownMagicString } from 'rolldown';

/** The tags whose templates are HTML (or SVG) and CSS. */
const HTML_TAGS = new Set(['html', 'svg']);
const CSS_TAGS = new Set(['css']);

/** Stands for an expression while a template's texts are scanned as one string. */
const HOLE = '\u0000';

const isSpace = (char) => char === ' ' || char === '\n' || char === '\t' || char === '\r' || char === '\f';
const RAW_TEXT_ELEMENTS = new Set(['pre', 'textarea', 'script', 'style']);

/** Reads the whitespace run of `text` from `index`; returns its end. */
function runEnd(text, index) {
  let end = index;
  while (end < text.length && isSpace(text[end])) end++;
  return end;
}

/**
 * Minifies the texts of one HTML template, given as its parts between expressions (raw source text);
 * returns as many parts.
 */
export function minifyHtmlParts(parts) {
  const text = parts.join(HOLE);
  let out = '';
  let i = 0;
  let state = 'text';
  let rawUntil = '';
  let tagName = '';
  while (i < text.length) {
    const char = text[i];
    if (state === 'raw') {
      // Verbatim until the closing tag of the <pre>, <textarea>, <script> or <style>.
      const close = text.toLowerCase().indexOf(`</${rawUntil}`, i);
      const end = close === -1 ? text.length : close;
      out += text.slice(i, end);
      i = end;
      state = 'text';
      continue;
    }
    if (state === 'text') {
      if (text.startsWith('<!--', i)) {
        const close = text.indexOf('-->', i + 4);
        const end = close === -1 ? text.length : close + 3;
        out += text.slice(i, end);
        i = end;
        continue;
      }
      if (char === '<' && /[a-zA-Z/]/.test(text[i + 1] ?? '')) {
        const name = /^<\/?([a-zA-Z][^\s/>]*)/.exec(text.slice(i))?.[1]?.split(HOLE)[0] ?? '';
        tagName = text[i + 1] === '/' ? '' : name.toLowerCase();
        state = 'tag';
        out += char;
        i++;
        continue;
      }
      if (isSpace(char)) {
        const end = runEnd(text, i);
        const run = text.slice(i, end);
        const next = text[end];
        const atEdge = out.length === 0 || end === text.length;
        const layout = run.includes('\n') && (atEdge || out.endsWith('>') || next === '<');
        if (!layout) out += ' ';
        i = end;
        continue;
      }
      out += char;
      i++;
      continue;
    }
    // Inside a tag.
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, i + 1);
      const end = close === -1 ? text.length : close + 1;
      out += text.slice(i, end);
      i = end;
      continue;
    }
    if (isSpace(char)) {
      const end = runEnd(text, i);
      const next = text[end];
      if (!(next === '>' || (next === '/' && text[end + 1] === '>') || end === text.length)) out += ' ';
      i = end;
      continue;
    }
    out += char;
    i++;
    if (char === '>') {
      if (RAW_TEXT_ELEMENTS.has(tagName)) {
        state = 'raw';
        rawUntil = tagName;
      } else state = 'text';
    }
  }
  return out.split(HOLE);
}

/** Characters next to which CSS needs no whitespace (on both sides). */
const CSS_TIGHT = new Set(['{', '}', ';', ',', '>', '!']);

/** Minifies the texts of one CSS template, given as its parts between expressions; returns as many parts. */
export function minifyCssParts(parts) {
  const text = parts.join(HOLE);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close === -1 ? text.length : close + 2;
      // A comment between two words still separates them.
      if (isSpace(text[i] ?? '') || out.length === 0) continue;
      if (!isSpace(out.at(-1) ?? ' ') && !CSS_TIGHT.has(out.at(-1)) && !CSS_TIGHT.has(text[i]) && i < text.length) out += ' ';
      continue;
    }
    if (char === '"' || char === "'") {
      let end = i + 1;
      while (end < text.length && text[end] !== char) end += text[end] === '\\' ? 2 : 1;
      out += text.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    if (isSpace(char)) {
      let end = runEnd(text, i);
      // Comments inside a run belong to it.
      while (text.startsWith('/*', end)) {
        const close = text.indexOf('*/', end + 2);
        end = runEnd(text, close === -1 ? text.length : close + 2);
      }
      const prev = out.at(-1);
      const next = text[end];
      const drop = prev === undefined || end === text.length || CSS_TIGHT.has(prev) || prev === ':' || CSS_TIGHT.has(next);
      if (!drop) out += ' ';
      i = end;
      continue;
    }
    if (char === '}' && out.endsWith(';')) out = out.slice(0, -1);
    out += char;
    i++;
  }
  return out.split(HOLE);
}

function tagName(node) {
  return node.tag?.type === 'Identifier' ? node.tag.name : undefined;
}

/**
 * Minifies every Lit template of a module's code. Returns the edited code and its source map, or
 * `null` when nothing changed.
 */
export function minifyTemplates(code, id = 'module.js') {
  if (!/\b(html|svg|css)\s*`/.test(code)) return null;
  const lang = /\.tsx?$/.test(id) ? (id.endsWith('x') ? 'tsx' : 'ts') : id.endsWith('x') ? 'jsx' : 'js';
  const ast = parseAst(code, { lang });
  const magic = new RolldownMagicString(code, { filename: id });
  let changed = false;
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'TaggedTemplateExpression') {
      const name = tagName(node);
      const minify = HTML_TAGS.has(name) ? minifyHtmlParts : CSS_TAGS.has(name) ? minifyCssParts : undefined;
      const quasis = node.quasi.quasis;
      const parts = quasis.map((quasi) => quasi.value.raw);
      if (minify && !parts.some((part) => part.includes(HOLE))) {
        const minified = minify(parts);
        quasis.forEach((quasi, index) => {
          if (minified[index] === parts[index]) return;
          // Parsed as TypeScript, a template element's span includes its delimiters (`, }, ${).
          const start = code.slice(quasi.start, quasi.end) === parts[index] ? quasi.start : quasi.start + 1;
          const end = start + parts[index].length;
          // An empty part cannot be overwritten; removing its text gives the same result.
          if (minified[index] === '') magic.remove(start, end);
          else magic.overwrite(start, end, minified[index]);
          changed = true;
        });
      }
    }
    for (const key of Object.keys(node)) if (key !== 'parent' && node[key] && typeof node[key] === 'object') visit(node[key]);
  };
  visit(ast);
  if (!changed) return null;
  return { code: magic.toString(), map: magic.generateMap({ source: id, includeContent: true, hires: true }).toString() };
}

/**
 * The Vite plugin: minifies the Lit templates of the project's own modules (not of node_modules:
 * Lit's own code has none worth the work).
 */
export function minifyLitTemplates() {
  return {
    name: 'wallet-pay:minify-lit-templates',
    apply: 'build',
    transform(code, id) {
      if (id.includes('/node_modules/') || id.startsWith('\0') || !/\.[cm]?[jt]sx?$/.test(id.split('?')[0])) return null;
      return minifyTemplates(code, id.split('?')[0]);
    },
  };
}
