/**
 * `npm run soak -- --model [--minutes 10]`: the generated interleavings of test/node/model for minutes,
 * on the memory store, on PostgreSQL (a throwaway server) and on PGlite in turn, in batches of fresh seeds. It
 * prints how many sequences ran on each and the known breaks seen; on a break it prints fast-check's
 * report (seed, path, shrunk sequence) and fails.
 */
import { knownSeen } from '../test/node/model/commands.js';
import { checkModel } from '../test/node/model/run.js';
import { memoryBackend, pgliteBackend, postgresBackend, startStage, type Stage } from '../test/node/model/world.js';

/** Sequences per batch: each batch has its own seed, printed before it runs. */
const BATCH = 50;

/** What a model soak ran and found. */
export interface ModelSoakReport {
  seconds: number;
  sequences: Record<string, number>;
  known: Record<string, number>;
  /** fast-check's report of the first break, if any. */
  failure?: string;
}

export async function runModelSoak({ minutes, log = () => {} }: { minutes: number; log?: (line: string) => void }): Promise<ModelSoakReport> {
  if (!Number.isFinite(minutes) || minutes <= 0) throw new TypeError(`--minutes must be a positive number; got ${minutes}.`);
  const started = Date.now();
  const deadline = started + minutes * 60_000;
  const stages: Stage[] = [await startStage(memoryBackend()), await startStage(await postgresBackend()), await startStage(await pgliteBackend())];
  const sequences: Record<string, number> = { memory: 0, postgres: 0, pglite: 0 };
  let failure: string | undefined;
  try {
    for (let batch = 0; Date.now() < deadline && failure === undefined; batch++) {
      const stage = stages[batch % stages.length]!;
      const seed = Math.floor(Math.random() * 2 ** 31);
      log(`model soak: ${stage.backend.name}, seed ${seed}, ${BATCH} sequences`);
      try {
        await checkModel(stage, { numRuns: BATCH, seed });
        sequences[stage.backend.name] = (sequences[stage.backend.name] ?? 0) + BATCH;
      } catch (error) {
        failure = `${stage.backend.name}: ${error instanceof Error ? `${error.message}\n${String(error.cause ?? '')}` : String(error)}`;
      }
    }
  } finally {
    for (const stage of stages) await stage.close();
  }
  return { seconds: (Date.now() - started) / 1000, sequences, known: Object.fromEntries(knownSeen), ...(failure ? { failure } : {}) };
}

export function formatModelReport(report: ModelSoakReport): string {
  const total = Object.values(report.sequences).reduce((a, b) => a + b, 0);
  return [
    `Model soak: ${report.seconds.toFixed(0)} s, ${total} generated sequences (${Object.entries(report.sequences).map(([name, n]) => `${name} ${n}`).join(', ')})`,
    `Known breaks seen, awaiting their fixes: ${Object.keys(report.known).length === 0 ? 'none' : JSON.stringify(report.known)}`,
    report.failure ? `FAIL ${report.failure}` : 'OK   every invariant held after every step',
  ].join('\n');
}
