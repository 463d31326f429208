/**
 * The QR hand-off, as one lazily loaded module: the element imports it with `import()` when the
 * shopper chooses "Pay with the app on your phone", so a page that never opens the hand-off never
 * downloads the encoder. Budget: at most 5 KB gzip with Lit external (`scripts/handoff-size.mjs`).
 *
 * For the element, when the hand-off opens: `adoptHandoffStyles(this.renderRoot as ShadowRoot)`, then
 * render `handoffPanel({ deeplink, status }, actions, handoffStringsFor(lang, this.strings))`, or
 * `flowHandoffPanel`, whose buttons drive the payment's flow. The element moves focus into the panel (its `HANDOFF_FOCUS_ID`) after the update that first shows it,
 * and back to its button when the panel goes.
 */
export { flowHandoffPanel, handoffPanel, HANDOFF_FOCUS_ID, type HandoffActions, type HandoffStatus, type HandoffView } from './panel.js';
export { qrCode, qrGeometry, MIN_QR_PX, QUIET_ZONE, type QrGeometry } from './qr.js';
export { adoptHandoffStyles, handoffStyles } from './styles.js';
export {
  handoffStringsFor,
  HANDOFF_STRINGS_EN,
  HANDOFF_STRINGS_NE,
  type HandoffStringKey,
  type HandoffStrings,
} from '../i18n/handoff.js';
