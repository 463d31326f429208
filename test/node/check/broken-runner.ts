/**
 * The one runner of the broken-proxy tables (broken.test.ts: the kit behind a layer; broken-examples:
 * copies of the example proxies): each proxy must fail exactly the clause that names its fault, and
 * the failure must say which rule it breaks.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClauseId } from '../../../src/check/index.js';
import { checkProxy, type ProxyUnderTest } from './support.js';

/** A proxy broken in one way, and what the checker must say of it. */
export interface BrokenProxy {
  /** What it does wrong, read after "a proxy that". */
  name: string;
  /** The clause that names the fault. */
  fault: ClauseId;
  /** Clauses that fail too, as a consequence of the same fault (a proxy that drops its callbacks drops a late SUCCESS too). */
  alsoFails?: ClauseId[];
  /** What the failure must say, beyond the clause. */
  says?: RegExp;
}

/** How the table's proxies run. */
export interface BrokenRun<T extends BrokenProxy> {
  /** How many run at once. */
  concurrency: number;
  /** The test's name for one proxy. */
  title(broken: T): string;
  /**
   * Prepares one proxy (`index` is its row) and answers how to start it for a sandbox port; the start
   * may be called again on another port when the first was taken.
   */
  prepare(broken: T, index: number): (sandboxPort: number) => Promise<ProxyUnderTest>;
}

/** Registers a describe of one test per row of `table`. */
export function checkEachBroken<T extends BrokenProxy>(name: string, table: readonly T[], run: BrokenRun<T>): void {
  describe(name, { concurrency: run.concurrency }, () => {
    table.forEach((broken, index) => {
      test(run.title(broken), async () => {
        const { report, output } = await checkProxy(run.prepare(broken, index));
        const failed = report.clauses.filter((c) => !c.ok && !c.skipped);
        const details = failed.map((c) => `${c.id}: ${c.detail}`).join('\n');
        assert.deepEqual(failed.map((c) => c.id), [broken.fault, ...(broken.alsoFails ?? [])], output ? `${details}\n${output}` : details);
        // The failure says what was sent, what came back and which rule it breaks.
        assert.match(failed[0]!.detail, /breaks: (backends|contract)\.md/);
        if (broken.says) assert.match(failed[0]!.detail, broken.says);
        assert.equal(report.failed, 1 + (broken.alsoFails?.length ?? 0));
      });
    });
  });
}
