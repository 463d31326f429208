/**
 * The payment flow, the face of this folder: the state machine (`machine.ts`), the states and events
 * it reports (`state.ts`), what it needs from its host (`deps.ts`), and, for its own use, the parts
 * the machine delegates to over its context (`context.ts`: `attempts.ts`, `legs.ts`, `waiting.ts`,
 * `abandon.ts`, `outcome.ts`), its booking and return-routing rules (`booking.ts`) and its run
 * bookkeeping (`runs.ts`). Import the flow from here; the parts are imported directly only by their tests.
 */
export { PaymentFlow } from './machine.js';
export { IDLE_STATE, flowState } from './state.js';
export type { AbandonReason, FlowError, FlowErrorKind, FlowEvent, FlowEventMap, FlowEventType, FlowState, FlowStateName, FunnelStep, LeftFor } from './state.js';
export { DEFAULT_TIMINGS, type FlowDeps, type FlowTimings } from './deps.js';
