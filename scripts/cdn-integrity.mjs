// A Vite plugin for the CDN build: after each output is written, it writes `integrity.json` beside the
// files, naming the Subresource Integrity hash (`sha384-…`) of every file in the output directory. The
// build writes two outputs (ESM with its chunks, then the classic script) into the same directory, so
// the list is rebuilt from the directory each time and the last write covers both.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file the plugin writes. */
export const INTEGRITY_FILE = 'integrity.json';

/** The `integrity` attribute value of some bytes: `sha384-` and the base64 digest. */
export function integrityOf(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** `{ file: integrity }` for every file of `dir` except integrity.json itself, sorted by name. */
export function integrityManifest(dir) {
  const files = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name !== INTEGRITY_FILE)
    .map((entry) => entry.name)
    .sort();
  return Object.fromEntries(files.map((name) => [name, integrityOf(readFileSync(join(dir, name)))]));
}

export function cdnIntegrity() {
  return {
    name: 'wallet-pay:cdn-integrity',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) throw new Error('cdn-integrity: the output has no directory.');
      writeFileSync(join(options.dir, INTEGRITY_FILE), `${JSON.stringify(integrityManifest(options.dir), null, 2)}\n`);
    },
  };
}
