/** Environment variables a test changes, put back as they were when it ends. */
import type { TestContext } from 'node:test';

/** Saves `process.env[name]` now and restores it (or deletes it, if it was unset) after the test `t`. */
export function restoreEnvAfter(t: TestContext, name: string): void {
  const saved = process.env[name];
  t.after(() => {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  });
}
