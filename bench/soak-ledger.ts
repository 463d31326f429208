/**
 * The soak's own record of every booking it saw at the service, and the judge that reads it. The
 * sandbox keeps its newest 10,000 bookings (`MAX_BOOKINGS`), so past that its list no longer holds the
 * whole run: judging from it reported the bookings it had dropped as lost. The ledger reads each
 * booking's own record while the sandbox surely keeps it (a booking is dropped only once final, and only
 * after 10,000 newer ones), keeps a small copy of each without bound, and the checks read the ledger.
 */
import pg from 'pg';
import type { CallbackAttempt } from '../src/sandbox/esewa-intent/callbacks.js';
import type { SandboxBooking } from '../src/sandbox/index.js';

/** What the soak reads from the sandbox: a booking's own record, the list of those it keeps, its callback attempts. */
export interface BookingRecords {
  getBooking(bookingId: string): SandboxBooking | undefined;
  listBookings(): SandboxBooking[];
  /** The newest callback attempts (the sandbox keeps 5,000): each sweep adds the retries among them. */
  callbackAttempts?(): CallbackAttempt[];
}

/** What the ledger keeps of a booking: what the checks read, nothing more, so a long run stays small. */
export interface LedgerEntry {
  booking_id: string;
  correlation_id: string;
  status: string;
  order: string;
}

/** A result the kit delivered to `onPaymentResult`, as a worker reported it. */
export interface Delivered {
  correlation_id: string;
  booking_id?: string;
  status: string;
  source: string;
  order_id?: string;
  amount?: number;
}

const FINAL = new Set(['SUCCESS', 'FAILED', 'CANCELED', 'REVERTED']);

/** Every booking the soak saw at the service, by id, unbounded. */
export class SoakLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  /** Bookings answered to a shopper and not yet read final. */
  private readonly open = new Set<string>();
  /** Callback retries (attempts after the first) seen, by booking, attempt and time. */
  private readonly retried = new Set<string>();

  constructor(private readonly records: BookingRecords) {}

  /** A booking answered to a shopper: followed until the service's record of it is final. */
  follow(bookingId: string): void {
    this.open.add(bookingId);
  }

  /** Reads one booking's record now (after the soak itself moved it, e.g. a revert). */
  read(bookingId: string): void {
    const booking = this.records.getBooking(bookingId);
    if (booking) this.keep(booking);
  }

  /** Reads every followed booking; a final one is no longer followed. Cheap: few are open at once. */
  poll(): void {
    for (const id of this.open) {
      const booking = this.records.getBooking(id);
      if (!booking) continue;
      this.keep(booking);
      if (FINAL.has(booking.status)) this.open.delete(id);
    }
  }

  /** Adds what the sandbox's list holds now: bookings the service made that no shopper was answered. */
  sweep(): void {
    for (const booking of this.records.listBookings()) this.keep(booking);
    for (const a of this.records.callbackAttempts?.() ?? []) if (a.attempt > 1) this.retried.add(`${a.booking_id} ${a.attempt} ${a.at}`);
  }

  /** Callback retries seen by the sweeps, the whole run. */
  callbackRetries(): number {
    return this.retried.size;
  }

  /** Every booking seen, in the order first seen. */
  bookings(): LedgerEntry[] {
    return [...this.entries.values()];
  }

  has(bookingId: string): boolean {
    return this.entries.has(bookingId);
  }

  private keep(booking: SandboxBooking): void {
    this.entries.set(booking.booking_id, {
      booking_id: booking.booking_id,
      correlation_id: booking.correlation_id,
      status: booking.status,
      order: booking.properties?.['merchant_order'] ?? '?',
    });
  }
}

/** The end state against the ledger and the kit's tables: each check and the problems it found. */
export async function judge(
  ledger: SoakLedger,
  databaseUrl: string,
  delivered: readonly Delivered[],
  received: ReadonlySet<string>,
  problems: string[],
): Promise<Record<string, string[]>> {
  const bookings = ledger.bookings();
  const deliveredOnce: string[] = [];
  const count = new Map<string, number>();
  for (const d of delivered) count.set(`${d.correlation_id}\n${d.status}`, (count.get(`${d.correlation_id}\n${d.status}`) ?? 0) + 1);
  for (const booking of bookings) {
    const finals = booking.status === 'REVERTED' ? ['SUCCESS', 'REVERTED'] : ['SUCCESS', 'FAILED', 'CANCELED'].includes(booking.status) ? [booking.status] : [];
    for (const status of finals) {
      const n = count.get(`${booking.correlation_id}\n${status}`) ?? 0;
      if (n !== 1) deliveredOnce.push(`${booking.booking_id} ${status} delivered ${n} times`);
    }
  }
  for (const [id, n] of count) if (n > 1 && !deliveredOnce.some((line) => line.includes(id.split('\n')[1]!))) deliveredOnce.push(`${id.replace('\n', ' ')} delivered ${n} times`);

  const paidTwice: string[] = [];
  const paidByOrder = new Map<string, number>();
  for (const booking of bookings) {
    if (booking.status !== 'SUCCESS' && booking.status !== 'REVERTED') continue;
    paidByOrder.set(booking.order, (paidByOrder.get(booking.order) ?? 0) + 1);
  }
  for (const [order, n] of paidByOrder) if (n > 1) paidTwice.push(`order ${order} paid ${n} times`);

  const lost: string[] = [];
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ booking_id: string }>('SELECT booking_id FROM wpb_bookings');
    const stored = new Set(rows.map((row) => row.booking_id));
    for (const id of received) {
      if (!stored.has(id)) lost.push(`${id}: answered to a shopper, not in the kit's table`);
      if (!ledger.has(id)) lost.push(`${id}: answered to a shopper, unknown to the service`);
    }
    for (const booking of bookings) if (!stored.has(booking.booking_id)) lost.push(`${booking.booking_id}: at the service, not in the kit's table`);
  } finally {
    await db.end();
  }
  return { 'every final result delivered once': deliveredOnce, 'no order paid twice': paidTwice, 'nothing lost': lost, 'no 5xx and no unexpected error': problems };
}
