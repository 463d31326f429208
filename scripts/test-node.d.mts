/** Path prefixes of the slow test files, slowest first. */
export const SLOW_FIRST: string[];
/** The test files of `test:node` in the order they are to start. */
export function nodeTestFiles(root?: string): string[];
