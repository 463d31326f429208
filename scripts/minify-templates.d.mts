import type { Plugin } from 'vite';

/** Minifies the texts of one HTML (or SVG) template, given as its raw parts between expressions. */
export function minifyHtmlParts(parts: readonly string[]): string[];
/** Minifies the texts of one CSS template, given as its raw parts between expressions. */
export function minifyCssParts(parts: readonly string[]): string[];
/** Minifies every `html`, `svg` and `css` tagged template of a module; `null` when nothing changed. */
export function minifyTemplates(code: string, id?: string): { code: string; map: string } | null;
/** The Vite plugin (build only) that applies {@link minifyTemplates} to the project's own modules. */
export function minifyLitTemplates(): Plugin;
