import type { Plugin } from 'vite';

export const INTEGRITY_FILE: string;
/** `sha384-` and the base64 SHA-384 digest of `bytes`: an `integrity` attribute value. */
export function integrityOf(bytes: string | Uint8Array): string;
/** `{ file: integrity }` for every file of `dir` except integrity.json, sorted by name. */
export function integrityManifest(dir: string): Record<string, string>;
/** Writes integrity.json beside the CDN files after each output is written. */
export function cdnIntegrity(): Plugin;
