/**
 * The intent service's part of the book proxy contract document (src/check/openapi.ts): the signed
 * payment-status callback the proxy receives, its `webhooks`.
 */
import { SIGNED_FIELDS } from '../../protocol/signature.js';

/** The payment service's signed callback, which the proxy receives. */
export const INTENT_WEBHOOKS = {
  paymentStatus: {
    post: {
      summary: 'The payment service\'s signed payment-status callback to the proxy\'s callback URL',
      description: `Signed with HMAC-SHA256 and the access key over ${SIGNED_FIELDS.callback}, each value as the body writes it (1000.0 stays 1000.0), standard base64 with padding. Verify on the raw body text. Answer 2xx once recorded (again 2xx for a replay); refuse a forged or altered callback with a 4xx.`,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Callback' } } } },
      responses: {
        '2XX': { description: 'Recorded (or recorded before: a replay).' },
        '4XX': { description: 'Refused: a bad signature, altered fields, or a booking this proxy never made. Changes nothing.' },
        '5XX': { description: 'Not recorded yet: the service retries.' },
      },
    },
  },
} as const;
