/**
 * The attributes `renderWalletPayButton` writes on the tag: the element's own (its `properties`
 * table, compared with the element's `observedAttributes` by test/browser/element/server-render.test.ts)
 * and a few global ones a page styles or labels it by. Anything else (an `on…` handler, `style`) is
 * refused: a server render writes what the element reads, nothing a template could smuggle in.
 */
export const ELEMENT_ATTRIBUTES: readonly string[] = [
  'endpoint',
  'order-id',
  'environment',
  'success-url',
  'failure-url',
  'allowed-hosts',
  'return-origins',
  'android-package',
  'ios-app-id',
  'allow-framed',
  'booking-timeout',
  'disabled',
  'variant',
  'full-width',
  'label',
  'phone-handoff',
  'lang',
  'wallets',
  'wallet-order',
];

/** Global attributes a page may set on the tag; `data-…` and `aria-…` are allowed too. */
const GLOBAL_ATTRIBUTES: readonly string[] = ['id', 'class', 'dir', 'hidden', 'title', 'slot'];

/** Whether `renderWalletPayButton` writes the attribute `name`. */
export const isRenderedAttribute = (name: string): boolean =>
  ELEMENT_ATTRIBUTES.includes(name) || GLOBAL_ATTRIBUTES.includes(name) || /^(?:data|aria)-[a-z0-9-]+$/.test(name);
