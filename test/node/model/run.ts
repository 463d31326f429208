/**
 * Runs generated sequences against a stage (memory store or PostgreSQL): each sequence a fresh order
 * and store, its steps checked as they go, then healed, reconciled once and checked again. A failure
 * throws fast-check's report: the seed, the path and the shrunk sequence, to replay with `MODEL_SEED`
 * and `MODEL_PATH` (CONTRIBUTING.md).
 */
import fc from 'fast-check';
import { modelCommands, verdict } from './commands.js';
import { walletSteps } from './wallet-steps.js';
import type { Stage } from './world.js';

/** Options of {@link checkModel}. */
export interface ModelOptions {
  numRuns: number;
  seed?: number;
  path?: string;
  /** Longest sequence; default 14. */
  maxCommands?: number;
  /** Called once per sequence run (shrinking included). */
  onSequence?: () => void;
}

/** The options a test reads from the environment: `MODEL_SEED`, `MODEL_PATH`, `MODEL_RUNS` replay or widen a run. */
export function fromEnvironment(numRuns: number): ModelOptions {
  const env = process.env;
  return {
    numRuns: env.MODEL_RUNS ? Number(env.MODEL_RUNS) : numRuns,
    ...(env.MODEL_SEED ? { seed: Number(env.MODEL_SEED) } : {}),
    ...(env.MODEL_PATH ? { path: env.MODEL_PATH } : {}),
  };
}

/** Runs `numRuns` sequences (fewer when replaying a path); throws fast-check's report on a break. */
export async function checkModel(stage: Stage, options: ModelOptions): Promise<void> {
  // The trace of the first sequence that broke: a break that hangs on timing may not come back when replayed.
  let firstTrace: string[] | undefined;
  const property = fc.asyncProperty(modelCommands(options.maxCommands ?? 14, walletSteps()), async (commands) => {
    options.onSequence?.();
    const run = await stage.newRun();
    try {
      await fc.asyncModelRun(() => ({ model: run.model, real: run }), commands);
      await run.finish();
      verdict(run);
    } catch (error) {
      firstTrace ??= run.trace;
      throw error;
    } finally {
      run.close();
    }
  });
  try {
    await fc.assert(property, {
      numRuns: options.numRuns,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
      ...(options.path !== undefined ? { path: options.path } : {}),
    });
  } catch (error) {
    // fast-check keeps the break in the error's cause, which test reporters do not print: say it too.
    if (error instanceof Error && error.cause instanceof Error) error.message += `\n${error.cause.message}`;
    if (error instanceof Error && firstTrace) error.message += `\nTrace of the first sequence that broke (before shrinking):\n${traceText(firstTrace)}`;
    throw error;
  }
}

/** At most the last {@link TRACE_LINES} lines of a trace: the end of a run is where it broke. */
export function traceText(trace: readonly string[]): string {
  const cut = trace.length - TRACE_LINES;
  return [...(cut > 0 ? [`… ${cut} earlier lines left out`] : []), ...trace.slice(Math.max(0, cut))].join('\n');
}

const TRACE_LINES = 600;
