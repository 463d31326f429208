/**
 * The service's request and callback signature: HMAC-SHA256 keyed with the access key (UTF-8) over
 * `name=value` pairs joined by `,` in the order of `signed_field_names`, in standard base64 with
 * padding. Web Crypto only, so it runs in Node 20, in edge runtimes and in the sandbox alike.
 */

/** A value as it is written into the signed message: strings as they are, numbers as JavaScript writes them. */
export type SignedValue = string | number;

/** Thrown when a signature cannot be computed from the given values. */
export class SignatureInputError extends Error {
  override name = 'SignatureInputError';
}

const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

function hmacKey(accessKey: string): Promise<CryptoKey> {
  if (typeof accessKey !== 'string' || accessKey.length === 0) {
    throw new SignatureInputError('The access key is empty: set the key the provider issued.');
  }
  let key = keys.get(accessKey);
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(accessKey), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    // Merchants use one or two keys; a bound keeps a misuse from growing the cache without end.
    if (keys.size >= 16) keys.clear();
    keys.set(accessKey, key);
  }
  return key;
}

/** Splits `signed_field_names` into names, refusing empty names, spaces and repeats. */
export function parseSignedFieldNames(signedFieldNames: string): string[] {
  if (typeof signedFieldNames !== 'string' || signedFieldNames.length === 0) {
    throw new SignatureInputError('signed_field_names is empty.');
  }
  const names = signedFieldNames.split(',');
  const seen = new Set<string>();
  for (const name of names) {
    if (!/^[A-Za-z0-9_]+$/.test(name)) {
      throw new SignatureInputError(
        `signed_field_names must be comma-separated field names without spaces; got "${signedFieldNames}".`,
      );
    }
    if (seen.has(name)) throw new SignatureInputError(`signed_field_names names "${name}" twice.`);
    seen.add(name);
  }
  return names;
}

/** Writes one value as the message holds it. */
export function formatSignedValue(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new SignatureInputError(`Field "${name}" is not a finite number.`);
    return String(value);
  }
  throw new SignatureInputError(`Field "${name}" must be a string or a number to be signed; got ${typeof value}.`);
}

/** Builds the signed message: `name=value` pairs in the order of `signedFieldNames`, joined by `,`. */
export function signatureMessage(values: Readonly<Record<string, unknown>>, signedFieldNames: string): string {
  return parseSignedFieldNames(signedFieldNames)
    .map((name) => {
      if (!(name in values) || values[name] === undefined || values[name] === null) {
        throw new SignatureInputError(`Field "${name}" is listed in signed_field_names but has no value.`);
      }
      return `${name}=${formatSignedValue(name, values[name])}`;
    })
    .join(',');
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  // Standard alphabet with padding only: a URL-safe or unpadded value is a different signature.
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Signs an already-built message. */
export async function signMessage(message: string, accessKey: string): Promise<string> {
  const signature = await crypto.subtle.sign('HMAC', await hmacKey(accessKey), encoder.encode(message));
  return toBase64(new Uint8Array(signature));
}

/**
 * Returns the base64 HMAC-SHA256 signature of `values` over `signedFieldNames`
 * (for example `"product_code,amount,transaction_uuid"`).
 */
export async function createSignature(
  values: Readonly<Record<string, unknown>>,
  signedFieldNames: string,
  accessKey: string,
): Promise<string> {
  return signMessage(signatureMessage(values, signedFieldNames), accessKey);
}

/**
 * Checks a signature over an already-built message in constant time (Web Crypto's HMAC verify).
 * A signature that is not standard padded base64 is simply wrong.
 */
export async function verifyMessage(message: string, signature: string, accessKey: string): Promise<boolean> {
  if (typeof signature !== 'string') return false;
  const bytes = fromBase64(signature);
  if (!bytes || bytes.length !== 32) return false;
  return crypto.subtle.verify('HMAC', await hmacKey(accessKey), bytes, encoder.encode(message));
}

/** A payload that carries its own `signed_field_names` and `signature`. */
export interface SignedPayload {
  signed_field_names: string;
  signature: string;
  [field: string]: unknown;
}

/**
 * Verifies a payload that carries `signed_field_names` and `signature`, in constant time, and requires
 * `signed_field_names` to be exactly `expectedFields` (e.g. `SIGNED_FIELDS.callback`). The list is
 * required: a payload that names its own fields could pass off any signature the service or this kit
 * ever made (a web-payment form's, say) as another message's.
 * Returns false for a wrong signature or a payload that cannot be checked (missing fields, bad types).
 */
export async function verifySignature(payload: Readonly<Record<string, unknown>>, accessKey: string, expectedFields: string): Promise<boolean> {
  if (typeof expectedFields !== 'string' || !expectedFields) throw new TypeError('verifySignature needs the expected field list, e.g. SIGNED_FIELDS.callback.');
  const { signed_field_names: names, signature } = payload;
  if (typeof names !== 'string' || typeof signature !== 'string' || names !== expectedFields) return false;
  let message: string;
  try {
    message = signatureMessage(payload, names);
  } catch (error) {
    if (error instanceof SignatureInputError) return false;
    throw error;
  }
  return verifyMessage(message, signature, accessKey);
}

/** The fields each operation signs, in the order the spec shows. */
export const SIGNED_FIELDS = {
  book: 'product_code,amount,transaction_uuid',
  status: 'booking_id,product_code,correlation_id',
  cancel: 'booking_id,product_code',
  callback: 'product_code,amount,reference_code,correlation_id,status',
} as const;

/**
 * The fields the web-payment instruction signs (our contract between the kit and the provider's web
 * page; the spec shows no web-payment request).
 */
export const WEB_PAYMENT_SIGNED_FIELDS = 'booking_id,correlation_id';
