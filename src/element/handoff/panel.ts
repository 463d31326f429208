import { html, nothing, type TemplateResult } from 'lit/html.js';
import { qrCode } from './qr.js';
import { action } from '../action.js';
import type { HandoffStringKey, HandoffStrings } from '../i18n/index.js';
import { handoffStringsFor } from '../i18n/handoff.js';
import type { PaymentFlow } from '../../core/flow/index.js';

/**
 * Where the hand-off stands, as the panel shows it:
 * - `waiting`: the code shows and the element is checking the booking's status;
 * - `stalled`: the five-minute rule ran out without a final status ("Check again");
 * - `expired`: the booking expired unpaid; the code is gone ("Get a new code").
 */
export type HandoffStatus = 'waiting' | 'stalled' | 'expired';

/** What the panel shows. */
export interface HandoffView {
  /**
   * The `app` booking's deeplink, already accepted by `checkProviderUrl` (scheme and host allowed):
   * the panel puts it in the code and in a real link as it is, and checks nothing itself.
   */
  deeplink: URL;
  status: HandoffStatus;
}

/** What the panel's buttons do; each is called with no argument and no `this`. */
export interface HandoffActions {
  /** "Use this computer instead": cancel the `app` booking, then pay on the web as the desktop path does. */
  useComputer(): void;
  /** "Cancel payment": cancel the booking and end the payment as a cancellation. */
  cancel(): void;
  /** "Get a new code" (`expired` only): a new `app` attempt with a new Idempotency-Key. */
  newCode(): void;
  /** "Check again" (`stalled` only): one more status check. */
  checkAgain(): void;
}

/** The id of the panel's focus target (the panel itself, `tabindex="-1"`). */
export const HANDOFF_FOCUS_ID = 'handoff';

/**
 * The hand-off panel: a titled group with the instructions, the deeplink's QR code (part `qr`), "Open
 * on this device" (the deeplink as a real `<a href>`, for a shopper already on the phone or tablet
 * that has the app), a `role="status"` line, and the actions (part `action` plus one name each:
 * `open-here`, `new-code`, `check-again`, `use-computer`, `cancel`).
 *
 * Render it inside the element's shadow root, after {@link adoptHandoffStyles} on that root; the
 * element's own `.panel`, `.action` and `.status` styles apply. Its texts come from
 * `handoffStringsFor()` in the element's language. While it shows, leave the element's own status
 * region empty: this panel's status line speaks for the hand-off, and two would say it twice.
 *
 * @csspart panel - The panel (with `handoff`).
 * @csspart handoff - The panel.
 * @csspart qr - The QR code (its colours, quiet zone and minimum size cannot be themed).
 * @csspart handoff-status - The panel's status line.
 * @csspart action - Each link and button of the panel.
 * A deeplink too long for a QR code (over about 2,300 bytes) shows `handoff.too-long` with "Use this
 * computer instead" and "Cancel payment" instead of the code.
 */
export function handoffPanel(view: HandoffView, actions: HandoffActions, t: HandoffStrings): TemplateResult {
  const { status } = view;
  const href = view.deeplink.href;
  const open = status !== 'expired';
  const button = (part: string, key: HandoffStringKey, run: () => void) => action(part, t[key], run);
  let code: TemplateResult | undefined;
  try {
    if (open) code = qrCode(href, t['handoff.qr']);
  } catch {
    // A link longer than the largest code holds: said, with the two ways out, never an empty panel.
    return html`<div id=${HANDOFF_FOCUS_ID} part="panel handoff" class="panel handoff" role="group" tabindex="-1" aria-labelledby="handoff-title">
<p id="handoff-title" class="title">${t['handoff.label']}</p>
<p part="handoff-status" class="status" role="status">${t['handoff.too-long']}</p>
${button('use-computer', 'handoff.use-computer', actions.useComputer)}${button('cancel', 'handoff.cancel', actions.cancel)}</div>`;
  }
  // The build keeps template whitespace: line breaks only between the panel's children, where a flex
  // column draws none.
  return html`<div id=${HANDOFF_FOCUS_ID} part="panel handoff" class="panel handoff" role="group" tabindex="-1" aria-labelledby="handoff-title" aria-describedby=${open ? 'handoff-steps' : nothing}>
<p id="handoff-title" class="title">${t['handoff.label']}</p>
${open ? html`<p id="handoff-steps">${t['handoff.steps']}</p>${code}<a part="action open-here" class="action" href=${href}>${t['handoff.open-here']}</a>` : nothing}
<p part="handoff-status" class="status" role="status">${t[`handoff.${status}`]}</p>
${open ? (status === 'stalled' ? button('check-again', 'handoff.check-again', actions.checkAgain) : nothing) : button('new-code', 'handoff.new-code', actions.newCode)}
${button('use-computer', 'handoff.use-computer', actions.useComputer)}${button('cancel', 'handoff.cancel', actions.cancel)}</div>`;
}

/**
 * The hand-off panel of `view` whose buttons drive a payment's `flow` ("Use this computer instead"
 * pays on the web), in the words of `lang` with the element's `overrides`: the payment code's glue,
 * which comes with this module rather than with the payment code every payer loads.
 */
export const flowHandoffPanel = (
  view: HandoffView,
  flow: Pick<PaymentFlow, 'payOnWeb' | 'cancel' | 'newCode' | 'checkAgain'>,
  lang: string | null,
  overrides: Parameters<typeof handoffStringsFor>[1],
): TemplateResult =>
  handoffPanel(
    view,
    { useComputer: () => flow.payOnWeb(), cancel: () => flow.cancel(), newCode: () => flow.newCode(), checkAgain: () => flow.checkAgain() },
    handoffStringsFor(lang, overrides),
  );
