/** The set-up every database store runs before its first call (shared by the PostgreSQL, MySQL and Redis stores). */

/** A store's set-up, run once: {@link SetUpOnce.ready} starts it, {@link SetUpOnce.done} says it succeeded. */
export interface SetUpOnce {
  /** Runs the set-up on the first call; later calls share that run. After it failed, the next call runs it again. */
  ready(): Promise<void>;
  /** Whether the set-up succeeded: a call need not wait for it. */
  readonly done: boolean;
}

/**
 * Runs `prepare` once for every caller. A set-up that failed (a database that was down at start-up)
 * is forgotten, so the next call tries it again instead of failing for good.
 */
export function setUpOnce(prepare: () => Promise<void>): SetUpOnce {
  let running: Promise<void> | undefined;
  let done = false;
  return {
    ready() {
      running ??= prepare().then(
        () => {
          done = true;
        },
        (error: unknown) => {
          running = undefined;
          throw error;
        },
      );
      return running;
    },
    get done() {
      return done;
    },
  };
}

/**
 * The error for tables (prefix `p`) whose schema version, `found` (undefined: none), is not `wanted`,
 * naming the function whose SQL creates or migrates them; undefined when the version is the one wanted.
 */
export function schemaVersionError(p: string, found: number | undefined, wanted: number, schemaFunction: string): Error | undefined {
  if (found === wanted) return undefined;
  if (found === undefined) return new Error(`The payment store's tables (${p}*) have no schema version; run ${schemaFunction}()'s SQL.`);
  const migrate = found < wanted ? `: run ${schemaFunction}()'s SQL to migrate them` : '';
  return new Error(`The payment store's tables (${p}*) have schema version ${found}; this code reads version ${wanted}${migrate}.`);
}
