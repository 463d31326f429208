/** The repository's root folder. */
export const ROOT: string;
/** Where the Node suite's compiled copy is written: test-results/compiled/. */
export const COMPILED: string;
/** The folders whose TypeScript is compiled. */
export const COMPILED_FOLDERS: string[];
/** The compiled path of a repository path (`test/node/a.test.ts` → `<out>/test/node/a.test.js`). */
export function compiledPath(path: string, out?: string): string;
/** Builds the compiled copy afresh in `out`; resolves with the count of TypeScript files compiled. */
export function compileTests(out?: string): Promise<number>;
