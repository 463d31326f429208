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
// The phone that paid from a computer's code (phone.html): it keeps no booking, the computer goes on.
const phone = document.body.dataset.page === 'phone';

/** On the phone, the heading says where the payment stands and that the computer carries on. */
function headline(status: string | null): void {
  if (!phone) return;
  const success = status === 'SUCCESS';
  const title = field('result-title');
  title.textContent = success
    ? 'Payment complete — you can return to your computer'
    : 'The payment did not go through — return to your computer to try again';
  title.closest('.result')?.classList.add(success ? 'success' : 'failure');
}

async function show(): Promise<void> {
  field('booking').textContent = bookingId ?? '(none in the address)';
  if (!bookingId) {
    field('status').textContent = 'unknown';
    return;
  }
  // Ask the merchant server, which verifies with the service; the address's own status is not trusted.
  // The phone can arrive before the service's callback: the server waits for the record (up to 5 s).
  // A failure page may come before any final result (a web checkout that sent the shopper back unpaid).
  const query = phone ? '?wait=5000' : document.body.dataset.page === 'failure' ? '?optional=1' : '';
  const response = await fetch(`/api/merchant/bookings/${encodeURIComponent(bookingId)}${query}`);
  if (!response.ok) {
    field('status').textContent = `not verified (${response.status})`;
    headline(null);
    log('page', `merchant record lookup failed: HTTP ${response.status}`);
    return;
  }
  const record = (await response.json()) as MerchantRecord | { status: null };
  if (record.status === null) {
    field('status').textContent = 'not paid (no final result from the provider yet)';
    headline(null);
    return;
  }
  field('status').textContent = record.status;
  headline(record.status);
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
