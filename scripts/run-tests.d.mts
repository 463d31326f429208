export interface Step {
  name: string;
  command: string[];
  /** Steps run at the same time as this one, their output printed after its own (a line for each that passed when this one failed). */
  beside?: { name: string; command: string[] }[];
}
/** Runs the steps in order (`timed` hears each finished step's wall time, its steps beside it included); resolves with the first failure, or undefined when all passed. */
export function runSteps(steps: Step[], options?: { print?: (text: string) => void; timed?: (name: string, ms: number) => void }): Promise<{ step: string; code: number } | undefined>;
/** What `npm test` runs. */
export const TEST_STEPS: Step[];
