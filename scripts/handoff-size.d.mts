import type { SizeResult } from './size.mjs';

export const HANDOFF_NAME: string;
/** Gzip budget of the hand-off module in bytes. */
export const HANDOFF_BUDGET: number;
/** The hand-off module bundled with Lit external and minified: its code. */
export function handoffBundle(): Promise<string>;
/** The offer text's module alone, minified: what a static import of it costs the first module. */
export function offerBundle(): Promise<string>;
/** Raw, gzip and brotli bytes of the hand-off module. */
export function handoffSize(): Promise<SizeResult>;
