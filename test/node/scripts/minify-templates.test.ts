import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minifyCssParts, minifyHtmlParts, minifyTemplates } from '../../../scripts/minify-templates.mjs';

test('HTML: indentation between tags and at the ends goes, attributes keep one space, expressions stay', () => {
  const parts = ['\n  <button\n    part="button"\n    ?disabled=', '\n    @click=', '\n  >\n    <slot>', '</slot>\n  </button>\n'];
  assert.deepEqual(minifyHtmlParts(parts), ['<button part="button" ?disabled=', ' @click=', '><slot>', '</slot></button>']);
});

test('HTML: a space between expressions or words is kept as one space; runs without a line break too', () => {
  assert.deepEqual(minifyHtmlParts(['<p>', '\n  ', '   and  more\n</p>']), ['<p>', ' ', ' and more</p>']);
  assert.deepEqual(minifyHtmlParts(['<b>Pay</b> <i>now</i>']), ['<b>Pay</b> <i>now</i>']);
  // A single space at a template's edge is text (a template spliced into another): it stays.
  assert.deepEqual(minifyHtmlParts([' ', ' ']), [' ', ' ']);
});

test('HTML: quoted attribute values, comments and <pre>/<textarea> content are kept as written', () => {
  assert.deepEqual(minifyHtmlParts(['<div title="a   b\n  c" part="action ', '">\n  x\n</div>']), ['<div title="a   b\n  c" part="action ', '">x</div>']);
  assert.deepEqual(minifyHtmlParts(['<!--  keep   me -->\n<pre>\n  a\n    b\n</pre>\n']), ['<!--  keep   me --><pre>\n  a\n    b\n</pre>']);
  assert.deepEqual(minifyHtmlParts(['<textarea>\n  ', '\n</textarea>']), ['<textarea>\n  ', '\n</textarea>']);
  assert.deepEqual(minifyHtmlParts(['<br\n  />\n<input type="text" >']), ['<br/><input type="text">']);
});

test('CSS: comments and layout whitespace go; values, selectors, strings and calc() keep their meaning', () => {
  const source = `
    /* the host */
    :host {
      --_bg: #4a1f7a;
      gap: var(--wallet-pay-gap, .5rem);
    }
    a :hover, .b > .c {
      padding: 0 1.25rem;
      width: calc(100% - 2px) !important;
      content: "a  /* b */  c";
    }
    @media (prefers-color-scheme: dark) and (min-width: 600px) {
      :host([variant=auto]) { color: red; }
    }
  `;
  assert.deepEqual(minifyCssParts([source]), [
    ':host{--_bg:#4a1f7a;gap:var(--wallet-pay-gap,.5rem)}a :hover,.b>.c{padding:0 1.25rem;width:calc(100% - 2px)!important;content:"a  /* b */  c"}@media (prefers-color-scheme:dark) and (min-width:600px){:host([variant=auto]){color:red}}',
  ]);
});

test('CSS: expressions stay in place, with the whitespace around them kept where it separates', () => {
  assert.deepEqual(minifyCssParts(['\n  .a {\n    color: ', ';\n    margin: ', ' ', ';\n  }\n  ', '\n']), ['.a{color:', ';margin:', ' ', '}', '']);
});

test('minifyTemplates rewrites only html, svg and css templates, keeps every expression and gives a source map', () => {
  const code = [
    "import { html, css } from 'lit';",
    'const label: string = "Pay";',
    'export const view = (busy: boolean) => html`',
    '  <button aria-busy=${busy}>',
    '    ${label}',
    '  </button>',
    '`;',
    'export const styles = css`',
    '  .a {',
    '    color: red;',
    '  }',
    '`;',
    'export const text = `keep\n   me`;',
    'export const other = tag`  keep  `;',
  ].join('\n');
  const result = minifyTemplates(code, '/x/element.ts');
  assert.ok(result);
  assert.match(result.code, /html`<button aria-busy=\$\{busy\}>\$\{label\}<\/button>`/);
  assert.match(result.code, /css`\.a\{color:red\}`/);
  assert.match(result.code, /`keep\n {3}me`/);
  assert.match(result.code, /tag` {2}keep {2}`/);
  assert.match(result.code, /const label: string = "Pay";/);
  const map = JSON.parse(result.map) as { sources: string[]; mappings: string };
  assert.deepEqual(map.sources, ['/x/element.ts']);
  assert.ok(map.mappings.length > 0);
  assert.equal(minifyTemplates('const a = `x`;', 'a.js'), null, 'nothing to do: no result');
});
