/** Each suite's folders, files at once, a test's time limit and path prefixes of its slow files, slowest first. */
export const SUITES: Record<'node' | 'e2e' | 'built', { folders: string[]; concurrency: number; timeoutMs: number; slowFirst: string[]; compiled?: boolean }>;
/** The test files of a suite in the order they are to start. */
export function suiteFiles(suite: 'node' | 'e2e' | 'built', root?: string): string[];
