/**
 * eSewa ePay v2 as the sandbox plays it: paths, the merchant-key rule, amounts as eSewa reads and
 * writes them, and the provider's error bodies. Pure values and functions, no I/O; the facts come
 * from the project's provider notes (eSewa ePay v2), and where those are silent the comment says
 * the choice is ours.
 */

/** eSewa's form endpoint (the browser POSTs the merchant's eleven fields here). */
export const EPAY_FORM_PATH = '/api/epay/main/v2/form';
/** eSewa's status check (a server GET, no auth). */
export const EPAY_STATUS_PATH = '/api/epay/transaction/status/';
/** Every eSewa API path starts so; chaos answers eSewa's own "unavailable" body under it. */
export const EPAY_API_PREFIX = '/api/epay/';
/** The login page's own forms (eSewa's page paths are not public; these are the sandbox's). */
export const EPAY_SESSION_PREFIX = '/epay/session/';

/** eSewa's UAT merchant code. */
export const EPAY_TEST_PRODUCT_CODE = 'EPAYTEST';
/** eSewa's published ePay v2 UAT secret (no trailing `(`: the test-credentials page has none). */
export const EPAY_TEST_SECRET = '8gBm/:&EnhH.1/q';

/** The published test eSewa IDs, password and token the login page accepts. */
export const EPAY_TEST_LOGIN = {
  ids: ['9806800001', '9806800002', '9806800003', '9806800004', '9806800005'],
  password: 'Nepal@123',
  token: '123456',
} as const;

/** The eleven fields of the form POST, all required and non-empty. */
export const EPAY_FORM_FIELDS = [
  'amount',
  'tax_amount',
  'product_service_charge',
  'product_delivery_charge',
  'total_amount',
  'transaction_uuid',
  'product_code',
  'success_url',
  'failure_url',
  'signed_field_names',
  'signature',
] as const;

/** What the request must sign, in this order. */
export const EPAY_REQUEST_SIGNED_FIELDS = 'total_amount,transaction_uuid,product_code';
/** What the success payload signs (the list names itself). */
export const EPAY_RESPONSE_SIGNED_FIELDS = 'transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names';

/**
 * How long an unfinished session lives without use before the status check answers `NOT_FOUND`.
 * eSewa gives no lifetime for the web form; its native SDK pages time a session out after 5 idle
 * minutes, which is the only number published, so the sandbox takes it.
 */
export const EPAY_SESSION_IDLE_MS = 5 * 60_000;

/**
 * The key a product code's signatures use: the sandbox's access key for its own product codes (as
 * for the intent API); for `EPAYTEST`, when the sandbox has no key of its own for it, eSewa's
 * published test secret, so code copied from eSewa's docs works unchanged. Undefined: eSewa would
 * answer "Unable to fetch merchant key".
 */
export function epayKeyFor(productCode: string, sandbox: { productCodes: readonly string[]; accessKey: string }): string | undefined {
  if (sandbox.productCodes.includes(productCode)) return sandbox.accessKey;
  if (productCode === EPAY_TEST_PRODUCT_CODE) return EPAY_TEST_SECRET;
  return undefined;
}

/** An eSewa error body: `{ error_message, code }`, as the form and status endpoints answer. */
export interface EpayError {
  error_message: string;
  code: number | string;
}

/** The form endpoint's refusals seen in public reports; the rest use the same shape with our words. */
export const EPAY_ERRORS = {
  unknownMerchant: { error_message: 'Unable to fetch merchant key. Please try again later.', code: 0 },
  // Reported as "Invalid payload signature", code ES104; the body's exact layout is our reading.
  badSignature: { error_message: 'Invalid payload signature', code: 'ES104' },
  formUnavailable: { error_message: 'Service is currently unavailable. Please try again later.', code: 0 },
  statusUnavailable: { error_message: 'Service is currently unavailable', code: 0 },
} as const satisfies Record<string, EpayError>;

/** An error body of the sandbox's own wording, in eSewa's shape (eSewa documents none for these cases). */
export function epayError(message: string): EpayError {
  return { error_message: message, code: 0 };
}

const AMOUNT = /^(?:0|[1-9]\d*)(?:\.\d{1,2})?$/;

/**
 * An amount as posted (`"100"`, `"110.5"`, `"2,700.0"` in a status query) in paisa, or undefined when
 * it is not a plain decimal of at most two places. Commas are dropped first: eSewa writes them and
 * merchants send them back.
 */
export function paisaOf(text: string): number | undefined {
  const plain = text.replaceAll(',', '');
  if (!AMOUNT.test(plain)) return undefined;
  const [whole = '0', fraction = ''] = plain.split('.');
  const paisa = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(paisa) ? paisa : undefined;
}

/** Paisa as rupees with at least one decimal: `13300` → `133.0`, `13350` → `133.5`, `13325` → `133.25`. */
export function plainAmount(paisa: number): string {
  const whole = Math.floor(paisa / 100);
  const cents = paisa % 100;
  if (cents === 0) return `${whole}.0`;
  return `${whole}.${String(cents).padStart(2, '0').replace(/0$/, '')}`;
}

/**
 * `total_amount` as eSewa writes it in the success payload: a string with one decimal and, from
 * 1,000, a thousands separator (`"133.0"`, `"2,700.0"`). Whole rupees are what the captures show;
 * paisa keep their digits (our reading).
 */
export function epayAmountText(paisa: number): string {
  const [whole = '0', fraction = '0'] = plainAmount(paisa).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** Standard base64 of UTF-8 text (the success payload's `data`). */
export function base64Of(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}

/**
 * The success redirect: `?data=` glued onto `success_url` as eSewa does, even when the URL already
 * has a query (`…?x=1?data=…`). The base64 is not percent-encoded; a merchant parsing the query with
 * URLSearchParams gets `+` back as a space, so read it raw or use a query-free success URL.
 */
export function successLocation(successUrl: string, data: string): string {
  return `${successUrl}?data=${data}`;
}
