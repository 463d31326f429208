import type { build, InlineConfig } from 'vite';

/** Vite's `build(config)`, with `process.env.NODE_ENV` (which Vite sets when unset) restored afterwards. */
export function viteBuild(config: InlineConfig): ReturnType<typeof build>;
