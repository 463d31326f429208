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
  /** `ceiling` for a regression ceiling among the limits `--budgets` enforces; a budget otherwise. */
  kind?: 'ceiling';
}

export interface OverBudget extends SizeBudget {
  missing: boolean;
  over: number;
  gzipBytes: number;
}

export const OWN_CODE_NAME: string;
export const PAYER_EN_NAME: string;
export const NE_CHUNK_NAME: string;
export const HANDOFF_CHUNK_NAME: string;
export const CDN_ENTRY: string;
export const CDN_IIFE: string;
export const ESM_PIECES_NAME: string;
/** The CDN entry's gzip budget in bytes, Lit included. */
export const ENTRY_BUDGET: number;
/** How far the classic file may exceed the sum of the ESM pieces it inlines, in percent. */
export const CLASSIC_ALLOWANCE_PERCENT: number;
/** The fixed budgets (the CDN entry's); the classic file's depends on the build: {@link classicBudget}. */
export const BUDGETS: readonly SizeBudget[];
/** Regression ceilings: they may only go down. */
export const CEILINGS: readonly SizeBudget[];
/** A budget relative to another measure of the same build. */
export interface RelativeBudget extends SizeBudget {
  /** The gzip bytes the budget is relative to. */
  relativeTo: number;
}
/** The classic file's budget for the build measured in `results` (which must hold the ESM pieces' sum). */
export function classicBudget(results: readonly SizeResult[]): RelativeBudget;
/** The ceilings `--budgets` enforces beside the budgets (the whole English payment's, the Nepali chunk's). */
export const DECIDED_CEILINGS: readonly SizeBudget[];
/** Every limit `--budgets` enforces on the build measured in `results`: the budgets and {@link DECIDED_CEILINGS}. */
export function budgetsFor(results: readonly SizeResult[]): SizeBudget[];
/** The ESM pieces the classic file inlines (entry, payment, Nepali, hand-off, set-up messages), each file gzipped, summed. */
export function esmPieces(dir?: string): Promise<SizeResult>;
/** One line: the CDN entry's gzip bytes and how far over (or under) its budget, with Lit's share when given. */
export function entryStanding(results: readonly SizeResult[], lit?: SizeResult): string;
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
/** The relative imports of a built ES module. */
export function importsOf(code: string): Promise<{ static: string[]; dynamic: string[] }>;
/** The pieces of a CDN build, as file names relative to `dir`. */
export interface CdnPieces {
  /** The entry and its static imports: what loads before the element runs. */
  first: string[];
  /** What the payment chunk adds (with its static imports); empty before the split. */
  payment: string[];
  /** What the Nepali chunk adds; empty before the split. */
  ne: string[];
  /** What the phone hand-off's chunk adds (imported by the payment chunk when a code first shows). */
  handoff: string[];
  /** What the set-up messages chunk adds (loaded only when there is a set-up mistake to report). */
  setup: string[];
  /** Every chunk the first load imports dynamically. */
  dynamic: string[];
}
export function cdnPieces(dir?: string, entry?: string): Promise<CdnPieces>;
/** An English-page payer's load, and the Nepali chunk when built, each summed over its files. */
export function cdnLoads(dir?: string): Promise<SizeResult[]>;
/** Every measure a budget or ceiling names. */
export function budgetMeasures(): Promise<SizeResult[]>;
/** One report line per limit: measure, limit and verdict. */
export function verdicts(results: readonly SizeResult[], limits: readonly SizeBudget[], kind: string): string[];
/** Bundles `input` for production, minified as the CDN build does, `external` left out; the entry chunk's code. */
export function minifiedBundle(options: { input: string; external?: RegExp[]; plugins?: unknown[] }): Promise<string>;
