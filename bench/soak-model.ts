/**
 * `npm run soak -- --model [--minutes 10]`: the generated interleavings of test/node/model for minutes,
 * on the memory store, on PostgreSQL (a throwaway server) and on PGlite in turn, in batches of 50 with
 * fresh seeds, next to rounds of real handler processes stopped inside a book (bench/soak-pauses.ts).
 * It prints how many sequences ran on each store and how many pause rounds; on a break it prints
 * fast-check's report (seed, path, shrunk sequence) and fails.
 */
import { checkModel } from '../test/node/model/run.js';
import { ACCESS_KEY, memoryBackend, pgliteBackend, postgresBackend, PRODUCT, startStage, type Stage } from '../test/node/model/world.js';
import { runProcessPauses, type PauseReport } from './soak-pauses.js';

/** Sequences per batch: each batch has its own seed, printed before it runs. */
const BATCH = 50;

/** What a model soak ran and found. */
export interface ModelSoakReport {
  seconds: number;
  sequences: Record<string, number>;
  /** The rounds of real processes stopped inside a book (bench/soak-pauses.ts). */
  pauses: PauseReport;
  /** fast-check's report of the first break, or the process pauses' breaks, if any. */
  failure?: string;
}

export async function runModelSoak({ minutes, log = () => {} }: { minutes: number; log?: (line: string) => void }): Promise<ModelSoakReport> {
  if (!Number.isFinite(minutes) || minutes <= 0) throw new TypeError(`--minutes must be a positive number; got ${minutes}.`);
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const postgres = await postgresBackend();
  const stages: Stage[] = [await startStage(memoryBackend()), await startStage(postgres), await startStage(await pgliteBackend())];
  const sequences: Record<string, number> = { memory: 0, postgres: 0, pglite: 0 };
  let failure: string | undefined;
  let pauses: PauseReport = { rounds: 0, breaks: [] };
  try {
    // Real processes stopped inside a book, next to the generated sequences (they mostly wait).
    const pausing = runProcessPauses({ postgresUrl: postgres.url!, sandbox: stages[1]!.sandbox, productCode: PRODUCT, accessKey: ACCESS_KEY, deadline });
    for (let batch = 0; Date.now() < deadline && failure === undefined; batch++) {
      const stage = stages[batch % stages.length]!;
      const seed = Math.floor(Math.random() * 2 ** 31);
      log(`model soak: ${stage.backend.name}, seed ${seed}, ${BATCH} sequences`);
      try {
        await checkModel(stage, { numRuns: BATCH, seed });
        sequences[stage.backend.name] = (sequences[stage.backend.name] ?? 0) + BATCH;
      } catch (error) {
        failure = `${stage.backend.name}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    pauses = await pausing;
    if (failure === undefined && pauses.breaks.length > 0) failure = `process pauses: ${pauses.breaks.join('; ')}`;
  } finally {
    for (const stage of stages) await stage.close();
  }
  return { seconds: (Date.now() - started) / 1000, sequences, pauses, ...(failure ? { failure } : {}) };
}

export function formatModelReport(report: ModelSoakReport): string {
  const total = Object.values(report.sequences).reduce((a, b) => a + b, 0);
  return [
    `Model soak: ${report.seconds.toFixed(0)} s, ${total} generated sequences (${Object.entries(report.sequences).map(([name, n]) => `${name} ${n}`).join(', ')})`,
    `Process pauses: ${report.pauses.rounds} rounds of a handler process stopped (SIGSTOP) inside a book past the order's lease, ${report.pauses.breaks.length} breaks`,
    report.failure ? `FAIL ${report.failure}` : 'OK   every invariant held after every step',
  ].join('\n');
}
