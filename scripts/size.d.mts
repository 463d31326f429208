/** Sizes of one piece of code, in bytes. */
export interface SizeResult {
  name: string;
  raw: number;
  /** gzip, level 9. */
  gzip: number;
  /** brotli, quality 11. */
  brotli: number;
}

/** A gzip budget in bytes for one named result. */
export interface SizeBudget {
  name: string;
  gzip: number;
}

export interface OverBudget extends SizeBudget {
  missing: boolean;
  over: number;
  gzipBytes: number;
}

export const OWN_CODE_NAME: string;
export const BUDGETS: readonly SizeBudget[];
export const CEILINGS: readonly SizeBudget[];
export function measureBytes(name: string, bytes: string | Uint8Array): SizeResult;
export function measureFiles(paths: readonly string[]): Promise<SizeResult[]>;
export function shippedScripts(): Promise<string[]>;
export function elementOwnCode(): Promise<SizeResult>;
export const LIT_ALONE_NAME: string;
/** Lit's parts the element imports, bundled and minified like the CDN files: the floor under them. */
export function litAlone(): Promise<SizeResult>;
export const LOGIC_ALONE_NAME: string;
/** Empties every string literal and template text of `code`, keeping the quotes and all else. */
export function emptyStrings(code: string): Promise<string>;
/** The element's own code with every string emptied: its logic alone. */
export function ownLogicAlone(): Promise<SizeResult>;
export function overBudget(results: readonly SizeResult[], budgets?: readonly SizeBudget[]): OverBudget[];
