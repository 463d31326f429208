/** The providers' folders' parents: each subfolder of these is one provider's. */
export const PROVIDER_PARENTS: readonly string[];
/** Lines of a text as `wc -l` counts them: its newlines. */
export function lineCount(text: string): number;
/** Whether a folder (relative to the root) is a provider's folder or lies in one. */
export function isProviderFolder(folder: string): boolean;
/** Lines per folder and the totals. */
export interface Tally {
  folders: Map<string, number>;
  all: number;
  providers: number;
  outside: number;
}
export function tally(files: ReadonlyArray<readonly [string, number]>): Tally;
/** The `.ts` files under `dir`, with their line counts, paths relative to `root`. */
export function readTree(dir: string, root?: string): Array<[string, number]>;
/** The report's lines. */
export function report(tally: Tally): string[];
