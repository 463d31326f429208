'use client';
// The element registers in the browser only: its define module is loaded after hydration.
import { useEffect } from 'react';

export function PayButton({ orderId, allowedHosts }: { orderId: string; allowedHosts: string }) {
  useEffect(() => {
    void import('wallet-pay-button/define');
  }, []);
  return (
    <wallet-pay-button
      endpoint="/api/pay"
      order-id={orderId}
      allowed-hosts={allowedHosts}
      success-url={`/success?order=${orderId}`}
      failure-url={`/failure?order=${orderId}`}
    />
  );
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'wallet-pay-button': Record<string, string>;
    }
  }
}
