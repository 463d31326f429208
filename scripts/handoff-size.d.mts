import type { SizeResult } from './size.mjs';

export const HANDOFF_NAME: string;
/** Gzip budget of the hand-off module in bytes. */
export const HANDOFF_BUDGET: number;
/** The hand-off module bundled with Lit external and minified: its code. */
export function handoffBundle(): Promise<string>;
/** Raw, gzip and brotli bytes of the hand-off module. */
export function handoffSize(): Promise<SizeResult>;
