/**
 * Registers `<wallet-pay-button>`. Safe to import twice (two bundles on one page): the tag is only
 * defined while it is free.
 */
import { WalletPayButton } from './element/wallet-pay-button.js';

export { WalletPayButton };

if (!customElements.get('wallet-pay-button')) {
  customElements.define('wallet-pay-button', WalletPayButton);
}

declare global {
  interface HTMLElementTagNameMap {
    'wallet-pay-button': WalletPayButton;
  }
}
