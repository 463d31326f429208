// Writes the modules the element's bundles import its texts from (src/element/i18n/{en,ne}/*.ts), one
// per section of each language's table (src/element/i18n/en.ts, ne.ts), the table a translator edits.
// Run: `npm run texts` (`npm run build` runs it first). test/node/scripts/texts.test.ts fails when a
// written module and its table differ, so nobody edits a written module by hand and no text is lost.
import { readFileSync, writeFileSync } from 'node:fs';
import { AFTER_FAILED_LOAD, EN } from '../src/element/i18n/en.js';
import { NE } from '../src/element/i18n/ne.js';

/** A language's table as the script reads it: sections of keyed texts. */
type Table = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/** A section's module: the file it is written to, its export and its key type (English writes both). */
interface Part {
  readonly file: string;
  readonly name: string;
  readonly keyType: string;
  readonly about: string;
  readonly enTypes?: string;
}

/**
 * The module of each section. A section's texts go where its name says; a section missing here is an
 * error, so a new bundle's texts get a module of their own rather than a place in another's.
 */
const PARTS: Readonly<Record<keyof typeof EN, Part>> = {
  labels: { file: 'labels.ts', name: 'LABELS', keyType: 'LabelKey', about: "the element's first module (the button's first paint, also server-side rendering)" },
  payment: { file: 'texts.ts', name: 'TEXTS', keyType: 'TextKey', about: 'the payment code (in Nepali: a chunk of its own, loaded only on a Nepali page)' },
  handoff: {
    file: 'handoff.ts',
    name: 'HANDOFF_STRINGS',
    keyType: 'HandoffStringKey',
    about: "the phone hand-off's module",
    enTypes: "\n/** The hand-off's texts: one per key. */\nexport type HandoffStrings = Readonly<Record<HandoffStringKey, string>>;\n",
  },
};

const NAMES: Readonly<Record<string, string>> = { en: 'English', ne: 'Nepali' };

const LATER: readonly string[] = AFTER_FAILED_LOAD;

/**
 * A section's keys in `lang`'s table, in English's order: English's, but in any other language the words
 * for a failed load, which move from the first module (`labels`) to the language's own chunk (`payment`).
 */
function keysOf(lang: string, section: string, en: Table): string[] {
  const keys = Object.keys(en[section] ?? {});
  if (lang === 'en') return keys;
  if (section === 'labels') return keys.filter((key) => !LATER.includes(key));
  return section === 'payment' ? [...keys, ...LATER] : keys;
}

/** The key type of a section's module in `lang`, as {@link keysOf} gives its keys. */
function keyTypeOf(lang: string, section: keyof typeof EN): string {
  const { keyType } = PARTS[section];
  const later = LATER.map((key) => literal(key)).join(' | ');
  if (lang === 'en' || section === 'handoff') return keyType;
  return section === 'labels' ? `Exclude<${keyType}, ${later}>` : `${keyType} | ${later}`;
}

/** A text as a TypeScript string literal, single-quoted unless it holds a single quote and no double one. */
function literal(text: string): string {
  if (text.includes("'") && !text.includes('"')) return JSON.stringify(text);
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/**
 * Throws unless `table` has exactly `en`'s sections and, in each, exactly its keys, each with a text
 * that is not blank, and unless every English key is in one section only (the element's face merges them).
 */
function checkTable(lang: string, table: Table, en: Table): void {
  const sections = Object.keys(en);
  const unknown = Object.keys(table).filter((section) => !sections.includes(section));
  if (unknown.length) throw new Error(`${lang}: unknown section ${unknown.join(', ')}; the sections are ${sections.join(', ')}.`);
  const seen = new Map<string, string>();
  for (const section of sections) {
    if (!(section in PARTS)) throw new Error(`en: section ${section} has no module in scripts/texts.ts's PARTS.`);
    const texts = table[section];
    if (!texts) throw new Error(`${lang}: section ${section} is missing.`);
    const keys = keysOf(lang, section, en);
    const missing = keys.filter((key) => !(key in texts));
    const extra = Object.keys(texts).filter((key) => !keys.includes(key));
    if (missing.length) throw new Error(`${lang}: ${section} lacks ${missing.join(', ')}.`);
    if (extra.length) throw new Error(`${lang}: ${section} has keys English lacks: ${extra.join(', ')}.`);
    for (const key of keys) {
      const text = texts[key];
      if (typeof text !== 'string' || !text.trim()) throw new Error(`${lang}: ${section} ${key} is not a text (${JSON.stringify(text)}).`);
      if (seen.has(key)) throw new Error(`${lang}: ${key} is in both ${seen.get(key)} and ${section}.`);
      seen.set(key, section);
    }
  }
}

/** The text of one section's module for one language, its keys in English's order. */
function moduleText(lang: string, section: keyof typeof EN, texts: Readonly<Record<string, unknown>>, en: Table): string {
  const part = PARTS[section];
  const name = `${part.name}_${lang.toUpperCase()}`;
  const entries = keysOf(lang, section, en).map((key) => `  ${literal(key)}: ${literal(String(texts[key]))},\n`).join('');
  const head = `// Generated by \`npm run texts\` from ../${lang}.ts, section \`${section}\`: edit that table, not this file.\n`;
  const about = `/** The ${NAMES[lang] ?? lang} texts of ${part.about}. */\n`;
  if (lang === 'en') {
    return `${head}${about}export const ${name} = {\n${entries}} as const;\n\n/** A key of these texts. */\nexport type ${part.keyType} = keyof typeof ${name};\n${part.enTypes ?? ''}`;
  }
  const imports = `import type { ${part.keyType} } from '../en/${part.file.replace(/\.ts$/, '.js')}';\n\n`;
  return `${head}${imports}${about}export const ${name}: Readonly<Record<${keyTypeOf(lang, section)}, string>> = {\n${entries}};\n`;
}

/**
 * Every module the tables give, by path from the repository's root: a section of each language's table
 * per module. Throws when a table does not have English's sections and keys.
 */
export function textModules(tables: Readonly<Record<string, Table>> = { en: EN, ne: NE }): Map<string, string> {
  const en = tables.en;
  if (!en) throw new Error('The English table is the one every other is keyed by: it is missing.');
  const modules = new Map<string, string>();
  for (const [lang, table] of Object.entries(tables)) {
    checkTable(lang, table, en);
    for (const section of Object.keys(en) as (keyof typeof EN)[]) {
      modules.set(`src/element/i18n/${lang}/${PARTS[section].file}`, moduleText(lang, section, table[section] ?? {}, en));
    }
  }
  return modules;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\/scripts\//, '/scripts/'))) {
  const written: string[] = [];
  for (const [path, text] of textModules()) {
    const file = new URL(`../${path}`, import.meta.url);
    if (readFileSync(file, 'utf8') === text) continue;
    writeFileSync(file, text);
    written.push(path);
  }
  console.log(written.length ? `texts: wrote ${written.join(', ')}` : 'texts: every module matches its table');
}
