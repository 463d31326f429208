/**
 * The book proxy contract as an OpenAPI 3.1 document (shipped as `wallet-pay-button/contract.json`),
 * built from the same constants the element, the kit and the sandbox use, so the two cannot drift. The
 * rules a schema cannot say are written in it as text, each tied to the checker clause that proves it.
 */
import { ATTEMPT_HEADER, CODES, HTTP_STATUS_OF_CODE, IDEMPOTENCY_HEADER, PAYMENT_STATUSES } from '../protocol/contract.js';
import { SIGNED_FIELDS } from '../protocol/signature.js';
import { CLAUSES, type Clause } from './clauses.js';
import { EPAY_MODE } from './epay/openapi.js';
import { INTENT_WEBHOOKS } from './esewa-intent/openapi.js';
import { KHALTI_MODE } from './khalti/openapi.js';

/** What each code means, for the document (the source comments say the same for programmers). */
const CODE_MEANINGS: Readonly<Record<string, string>> = {
  'IP-201': 'Booking created; status fetched.',
  'IP-210': 'Booking cancelled.',
  'IP-400': 'Invalid signature.',
  'IP-401': 'Merchant authentication failed (unknown product code).',
  'IP-404': 'Unknown booking, or its correlation id does not match.',
  'IP-405': 'Not POST (with Allow: POST).',
  'IP-409': 'An Idempotency-Key reused for another channel or order.',
  'IP-410': 'Booking already processed (completed, failed, expired or reverted).',
  'IP-412': 'The order is already paid: a new booking for it is refused.',
  'IP-413': 'Body too large.',
  'IP-415': 'Content type is not application/json, or names a charset other than UTF-8.',
  'IP-420': 'The Host header or request target does not form a URL.',
  'IP-421': 'A value no request can carry, the field named: a control character in an id.',
  'IP-422': 'The body is not a JSON object, a field is missing, extra or malformed, or the Idempotency-Key is missing or malformed.',
  'IP-423': 'signed_field_names is not exactly the operation\'s list.',
  'IP-424': 'The merchant\'s order is unknown or cannot be paid.',
  'IP-444': 'No such endpoint.',
  'IP-500': 'Unexpected server error.',
  'IP-501': 'The merchant\'s server is set up wrongly for the payment service; retrying cannot help.',
  'IP-502': 'The payment service could not be reached or answered something unusable.',
  'IP-503': 'The merchant\'s store is unavailable for a moment; retry after Retry-After seconds.',
  'IP-504': 'The payment service did not answer in time.',
};

/** The five rules that lose money when broken, as the document and docs/backends.md state them. */
export const MONEY_RULES = [
  'The amount comes from your own order, never from the browser: the book body carries an order reference and nothing priced.',
  'One booking per Idempotency-Key: the same key asked again, in sequence or at once, answers the same booking; with another order or channel it is IP-409.',
  'One payable booking per order: once a booking of an order reached SUCCESS, a new booking of it is refused with IP-412.',
  'Verify every callback: HMAC-SHA256 over the signed fields exactly as the body writes them, with the access key; a forged or altered callback is refused with a 4xx and changes nothing. A final status stays final, but a refund (REVERTED) may follow a SUCCESS and a SUCCESS may follow a CANCELED: a payment that lands after a cancel is delivered, never dropped.',
  'A status comes from the service: /status answers what the service says for a booking this proxy made (its booking id and correlation id together), never what a browser or an unverified callback claims.',
] as const;

/** Every code of the contract with its HTTP status, sorted by code. */
function contractCodes(): Array<{ code: string; http: number }> {
  return Object.entries(HTTP_STATUS_OF_CODE).map(([code, http]) => ({ code, http })).sort((a, b) => a.code.localeCompare(b.code));
}

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The body of /status and /cancel: the booking's two ids, and optionally its order. */
const bookingReference = (): Schema => ({
  type: 'object',
  required: ['booking_id', 'correlation_id'],
  additionalProperties: false,
  properties: {
    booking_id: { ...str(), maxLength: 128 },
    correlation_id: { ...str(), maxLength: 128 },
    order: {
      ...ref('OrderReference'),
      description:
        'Optional: the order the booking was made for, as sent to /book, so a server that lost the booking can confirm it with the service and deliver its result with its order.',
    },
    receipt: { ...str('Optional: the book answer\'s receipt; a server that lost the booking asks the service about it only with it.'), maxLength: 128 },
  },
});
/** The element's attempt id: optional, for the merchant's logs only; a malformed one is ignored, never refused. */
const attemptHeader = (): Schema => ({
  name: ATTEMPT_HEADER,
  in: 'header',
  required: false,
  description: 'The element\'s attempt id, the one its funnel events carry: 1 to 64 letters, digits, "_" or "-". For logs only; anything else is ignored, never refused.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
});
const str = (description?: string): Schema => ({ type: 'string', minLength: 1, ...(description ? { description } : {}) });

function success(data: string, codes: string[]): Schema {
  return {
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: { code: { enum: codes }, message: { type: 'string' }, data: ref(data) },
  };
}

const SAFETY_HEADERS = {
  'Cache-Control': { description: 'Always no-store.', schema: { type: 'string', const: 'no-store' } },
  'X-Content-Type-Options': { description: 'Always nosniff.', schema: { type: 'string', const: 'nosniff' } },
};

/** Responses of one operation: its success, then one entry per failure status with its codes. */
function responses(data: string, okCodes: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '200': {
      description: `Success (${okCodes.join(', ')}).`,
      headers: SAFETY_HEADERS,
      content: { 'application/json; charset=utf-8': { schema: success(data, okCodes) } },
    },
  };
  const byStatus = new Map<number, string[]>();
  for (const { code, http } of contractCodes()) if (http >= 300) byStatus.set(http, [...(byStatus.get(http) ?? []), code]);
  for (const [http, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(http)] = {
      description: codes.map((code) => `${code}: ${CODE_MEANINGS[code] ?? ''}`).join(' '),
      headers: {
        ...SAFETY_HEADERS,
        ...(http === 405 ? { Allow: { description: 'POST.', schema: { type: 'string', const: 'POST' } } } : {}),
        ...(http === 503 ? { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } } } : {}),
      },
      content: { 'application/json; charset=utf-8': { schema: { allOf: [ref('FailureEnvelope'), { properties: { code: { enum: codes } } }] } } },
    };
  }
  return out;
}

function operation(summary: string, description: string, body: string, data: string, okCodes: string[], extra: Record<string, unknown> = {}): Schema {
  return {
    post: {
      summary,
      description,
      ...extra,
      requestBody: { required: true, content: { 'application/json': { schema: ref(body) } } },
      responses: responses(data, okCodes),
    },
  };
}

/** The four routes of the element, each a POST with its body, answer and codes. */
function contractPaths(): Record<string, Schema> {
  return {
    '/book': operation(
      'Book a payment for one of the merchant\'s orders',
      'The body names the order; the proxy takes the amount from its own record of it. app answers a deeplink, web a web_payment instruction. handoff: true only on an app booking a desktop makes for the shopper\'s phone.',
      'BookRequest',
      'BookResult',
      [CODES.OK],
      {
        parameters: [
          {
            name: IDEMPOTENCY_HEADER,
            in: 'header',
            required: true,
            description: 'One value per payment attempt, the same on a retry: 16 to 128 letters, digits, "-", "_", "." or ":". Missing or malformed: IP-422; reused with another order or channel: IP-409.',
            schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{16,128}$' },
          },
          attemptHeader(),
        ],
      },
    ),
    '/status': operation(
      'The status of a booking this proxy made, as the service reports it',
      'Both ids must belong together and to a booking this proxy made (IP-404 otherwise).',
      'StatusRequest',
      'StatusResult',
      [CODES.OK],
    ),
    '/cancel': operation(
      'Cancel an open booking this proxy made',
      'A booking already processed is IP-410; the wrong ids are IP-404.',
      'CancelRequest',
      'CancelResult',
      [CODES.CANCELLED],
    ),
    '/order': operation(
      'Whether one of the merchant\'s orders is paid',
      'Asked by a page that holds no booking of the order (a fresh tab), before it offers to pay. Answered from the proxy\'s own records of verified results: paid when a SUCCESS of the order is recorded, not followed by a refund (REVERTED), for at least the order\'s total now. An order the merchant does not know is IP-424.',
      'OrderRequest',
      'OrderResult',
      [CODES.OK],
      { parameters: [attemptHeader()] },
    ),
  };
}

/** The schemas of every body, answer and callback, one per type of src/protocol/contract.ts. */
function contractSchemas(): Record<string, Schema> {
  return {
    PaymentStatus: { enum: [...PAYMENT_STATUSES] },
    Channel: { enum: ['app', 'web'] },
    OrderReference: {
      type: 'object',
      description: 'The merchant\'s own order reference, e.g. { "id": "A-1001" }; nested at most 32 levels. Never trusted for a price.',
    },
    BookRequest: {
      type: 'object',
      required: ['channel', 'order'],
      additionalProperties: false,
      description: 'No amount or price: a body with any other field (a top-level amount, say) is IP-422.',
      properties: {
        channel: ref('Channel'),
        order: ref('OrderReference'),
        handoff: { const: true },
        wallet: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,31}$', description: 'The wallet the shopper chose, when the shop offers several (default: the proxy\'s first). One the shop does not take is IP-422.' },
      },
    },
    WebPaymentInstruction: {
      type: 'object',
      required: ['url', 'method'],
      description: 'POST submits fields to url as a form (fields required: the signed booking_id, correlation_id, signed_field_names and signature); GET navigates to url.',
      properties: {
        url: { type: 'string', format: 'uri' },
        method: { enum: ['GET', 'POST'] },
        fields: { type: 'object', additionalProperties: { type: 'string' } },
      },
      allOf: [{ if: { properties: { method: { const: 'POST' } } }, then: { required: ['fields'] } }],
    },
    BookResult: {
      type: 'object',
      required: ['booking_id', 'correlation_id', 'channel'],
      properties: {
        booking_id: str(),
        correlation_id: str(),
        channel: { ...ref('Channel'), description: 'The channel booked; a wallet paid on the web only answers web to an app request, and the browser follows it.' },
        wallet: str('The wallet the booking is with.'),
        deeplink: { type: 'string', format: 'uri', description: 'For the app channel.' },
        web_payment: ref('WebPaymentInstruction'),
        receipt: str('Proof the server gave this browser the booking: sent back with /status and /cancel.'),
      },
    },
    StatusRequest: {
      ...bookingReference(),
      properties: {
        ...(bookingReference().properties as Record<string, Schema>),
        return: {
          type: 'string',
          maxLength: 4096,
          description: "Optional: the query of the return address the shopper came back to (eSewa ePay v2's signed data). A hint: the server checks it and tells the merchant of a forged one; the status check decides.",
        },
      },
    },
    StatusResult: {
      type: 'object',
      required: ['booking_id', 'correlation_id', 'status'],
      properties: {
        booking_id: str(),
        correlation_id: str(),
        status: ref('PaymentStatus'),
        updated_at: { type: 'string', description: 'YYYY-MM-DD HH:MM:SS, as the service reports it.' },
      },
    },
    CancelRequest: bookingReference(),
    OrderRequest: {
      type: 'object',
      required: ['order'],
      additionalProperties: false,
      properties: { order: { ...ref('OrderReference'), description: 'The order, as sent to /book.' } },
    },
    OrderResult: {
      type: 'object',
      required: ['paid'],
      properties: {
        paid: { type: 'boolean' },
        status: {
          ...ref('PaymentStatus'),
          description: 'SUCCESS when paid; for an unpaid order with a booking still open, that booking\'s status (BOOKED or PENDING); absent otherwise.',
        },
      },
    },
    CancelResult: {
      type: 'object',
      required: ['booking_id', 'status'],
      properties: { booking_id: str(), status: ref('PaymentStatus') },
    },
    FailureEnvelope: {
      type: 'object',
      required: ['code', 'error_message'],
      properties: { code: { type: 'string', pattern: '^IP-[0-9]{3}$' }, error_message: { type: 'string' } },
    },
    Callback: {
      type: 'object',
      required: ['product_code', 'amount', 'reference_code', 'correlation_id', 'status', 'signed_field_names', 'signature'],
      additionalProperties: false,
      properties: {
        product_code: str(),
        amount: { type: 'number', exclusiveMinimum: 0 },
        reference_code: str(),
        correlation_id: str(),
        status: ref('PaymentStatus'),
        signed_field_names: { const: SIGNED_FIELDS.callback },
        signature: { type: 'string', contentEncoding: 'base64' },
      },
    },
  };
}

/** The pages a backend serves the shopper's browser (HTML, not API answers), and in which mode. */
const PAGES = [
  {
    method: 'GET',
    route: '/handoff',
    provider: 'both',
    summary: 'The redirect_url of a handoff: true booking, never the checkout: the phone, back from the wallet with ?booking_id=, is shown what the service says (never the status= of its address) and told to go back to its computer.',
  },
  {
    method: 'GET',
    route: '/return',
    provider: 'epay,khalti',
    summary: 'eSewa\'s success_url (query-free: eSewa appends ?data=) and failure_url (?booking_id=), or Khalti\'s return_url (?pidx=&status=…, unsigned): verifies eSewa\'s data on its raw text, takes Khalti\'s query as a hint, asks the status check or lookup, then sends the shopper to the checkout.',
  },
] as const;

/** Every route and page a backend owes, in one list: the example READMEs' tables are generated from it. */
function contractRoutes(): Array<{ method: string; route: string; provider: string; summary: string }> {
  const paths = Object.entries(contractPaths()).map(([route, item]) => ({ method: 'POST', route, provider: 'both', summary: String((item['post'] as Schema)['summary']) }));
  const callback = INTENT_WEBHOOKS.paymentStatus.post.summary;
  return [...paths, { method: 'POST', route: '/callback', provider: 'intent', summary: callback }, ...PAGES];
}

/** The OpenAPI 3.1 document of the book proxy contract. */
export function buildContractDocument(): Record<string, unknown> {
  const rules = MONEY_RULES.map((rule, i) => `${i + 1}. ${rule}`).join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: 'wallet-pay-button book proxy',
      version: '1',
      summary: 'What the merchant\'s own server answers to <wallet-pay-button>, and the payment service\'s callback it receives.',
      description:
        'Every request is POST with Content-Type: application/json (UTF-8). Success: HTTP 200 and { code, message, data }; failure: a non-2xx status and { code, error_message }, never a 2xx. Every answer carries Content-Type: application/json; charset=utf-8, Cache-Control: no-store and X-Content-Type-Options: nosniff, and is never a redirect.\n\n' +
        `The rules a schema cannot say (each is proved by the clauses of x-clauses, run with npx wallet-pay-check):\n${rules}`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '{endpoint}', variables: { endpoint: { default: 'https://shop.example/api/pay', description: 'The element\'s endpoint attribute.' } } }],
    paths: contractPaths(),
    webhooks: INTENT_WEBHOOKS,
    components: { schemas: contractSchemas() },
    'x-codes': contractCodes().map(({ code, http }) => ({ code, http, meaning: CODE_MEANINGS[code] ?? '' })),
    'x-money-rules': [...MONEY_RULES],
    'x-routes': contractRoutes(),
    'x-epay': EPAY_MODE,
    'x-khalti': KHALTI_MODE,
    'x-clauses': CLAUSES.map((clause: Clause) => ({ id: clause.id, title: clause.title, section: clause.section, provider: clause.provider ?? 'intent' })),
  };
}
