import { followServerLog, log } from './log.js';

interface MerchantRecord {
  booking_id: string;
  order_id: string;
  amount: number;
  status: string;
  verified_by: 'callback' | 'status-check' | 'cancel' | 'reconcile';
}

const field = (id: string) => document.querySelector<HTMLElement>(`#${id}`)!;
const params = new URLSearchParams(location.search);
const bookingId = params.get('booking_id');

async function show(): Promise<void> {
  field('booking').textContent = bookingId ?? '(none in the address)';
  if (!bookingId) {
    field('status').textContent = 'unknown';
    return;
  }
  // Ask the merchant server, which verifies with the service; the address's own status is not trusted.
  const response = await fetch(`/api/merchant/bookings/${encodeURIComponent(bookingId)}`);
  if (!response.ok) {
    field('status').textContent = `not verified (${response.status})`;
    log('page', `merchant record lookup failed: HTTP ${response.status}`);
    return;
  }
  const record = (await response.json()) as MerchantRecord;
  field('status').textContent = record.status;
  field('verified').textContent =
    record.verified_by === 'callback'
      ? 'signed callback from the service'
      : record.verified_by === 'reconcile'
        ? "the merchant server's own status check (five-minute rule)"
        : 'status check with the service';
  field('order').textContent = `${record.order_id} · ${record.amount}`;
}

followServerLog();
show()
  .catch((error: unknown) => {
    field('status').textContent = 'not verified';
    log('page', String(error));
  })
  .finally(() => field('record').setAttribute('aria-busy', 'false'));
