/** The key of each flow state's words: the core reports states and error kinds, the element owns the text. */
import type { FlowError, FlowState } from '../core/flow/state.js';
import type { StringKey } from './i18n/index.js';

/** The string of a failure: a refusal (4xx) reads differently from an outage. */
export function errorKey({ kind, httpStatus }: FlowError): StringKey {
  return kind === 'http' && httpStatus !== undefined && httpStatus < 500 ? 'error.rejected' : `error.${kind}`;
}

/** The status-region string of a state, or `null` when it shows none. */
export function statusKey(state: FlowState): StringKey | null {
  if (state.error) return errorKey(state.error);
  // Said beside the code or the panel, which stay: the wait goes on.
  if (state.reconnecting) return state.reconnecting === 'offline' ? 'status.reconnecting-offline' : 'status.reconnecting';
  // The hand-off's panel has a status line of its own: two would say it twice.
  if (state.booking?.handoff && state.name !== 'cancelling') return null;
  const { name, outcome } = state;
  if (name === 'done') return outcome === 'SUCCESS' ? 'status.success' : outcome === 'CANCELED' ? 'status.cancelled' : 'status.failure';
  // Said by the panel, or by nothing: idle, an error (its own key, above), a hand-off.
  return /^(idle|error|handoff(-expired)?)$/.test(name) ? null : `status.${name as Exclude<typeof name, 'idle' | 'error' | 'handoff' | 'handoff-expired' | 'done'>}`;
}
