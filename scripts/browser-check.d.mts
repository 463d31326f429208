/** What the check reads of a web-test-runner session. */
export interface SessionLike {
  group: { name: string };
  browser: { name: string };
  errors?: { message: string }[];
  testResults?: SuiteLike;
}
export interface SuiteLike {
  tests: { passed: boolean; skipped: boolean }[];
  suites: SuiteLike[];
}
/** The tests one group ran, and the errors that stopped its files before their tests. */
export interface GroupSummary {
  group: string;
  engine: string;
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  filesWithoutTests: number;
  fileErrors: Map<string, number>;
}
/** One summary per group. */
export function groupSummaries(sessions: Iterable<SessionLike>): GroupSummary[];
/** The groups in which no test passed, each with a message naming the group, the engine and the cause. */
export function silentGroups(summaries: GroupSummary[]): { group: string; engine: string; message: string }[];
/** One line per group for the end of the run. */
export function summaryLine(summary: GroupSummary): string;
