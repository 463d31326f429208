/** The base of every event of the element: bubbles, crosses shadow roots, carries a typed `detail`. */
export class WalletPayEvent<Detail> extends Event {
  /** The event's payload. */
  readonly detail: Detail;

  constructor(type: string, detail: Detail, cancelable = false) {
    super(type, { bubbles: true, composed: true, cancelable });
    this.detail = detail;
  }
}
