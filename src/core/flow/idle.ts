/**
 * The flow's state before anything happened, in a module of its own: the element's first module
 * renders the idle button from it without loading the rest of the flow's state helpers.
 */
/**
 * The state before anything happened. Typed by its shape (state.ts checks it is a `FlowState`), so this
 * module imports nothing.
 */
export const IDLE_STATE = {
  name: 'idle',
  busy: false,
  booking: null,
  canRetry: false,
  canStartAgain: false,
  error: null,
  outcome: null,
  paidUrl: null,
  reconnecting: null,
} as const;
