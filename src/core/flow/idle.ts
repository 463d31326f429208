/**
 * The flow's state before anything happened, in a module of its own: the element's first module
 * renders the idle button from it without loading the rest of the flow's state helpers.
 */
import type { FlowState } from './state.js';

/** The state before anything happened. */
export const IDLE_STATE: FlowState = {
  name: 'idle',
  busy: false,
  booking: null,
  canRetry: false,
  canStartAgain: false,
  error: null,
  outcome: null,
  paidUrl: null,
  reconnecting: null,
};
