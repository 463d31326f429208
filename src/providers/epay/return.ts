/**
 * eSewa ePay v2's signed return: the `data` parameter of the success redirect, base64 of a JSON object
 * signed over the fields its own `signed_field_names` lists. It travels through the shopper's browser,
 * so it is read here as untrusted text: decoded, its message rebuilt from each member's raw text,
 * checked in constant time. It is no proof of payment on its own; the status check is.
 */
import { RawJsonError, readRawJsonObject, type RawJsonMember } from '../../protocol/raw-json.js';
import { parseSignedFieldNames, SignatureInputError, verifyMessage } from '../../protocol/signature.js';
import { epayAmountWithoutComma } from './wire.js';

/** The members every return carries; `total_amount` may be a JSON number, the others are text. */
const TEXT_MEMBERS = ['transaction_code', 'status', 'transaction_uuid', 'product_code', 'signed_field_names', 'signature'] as const;

/** The fields a return's signature must cover, or a signature over fewer could be replayed with others changed. */
const MUST_SIGN = ['total_amount', 'transaction_uuid', 'status', 'product_code'] as const;

/** A return that passed every check. */
export interface EpayReturn {
  /** eSewa's transaction code (the status check's `ref_id`). */
  transaction_code: string;
  /** eSewa's status word as the return carries it (`COMPLETE` on success). */
  status: string;
  /** Rupees, a thousands comma dropped. */
  total_amount: number;
  /** `total_amount` exactly as the payload wrote it (`1000.0`, `"2,700.0"` without its quotes). */
  total_amount_text: string;
  /** The merchant's id of the payment, as posted in the form. */
  transaction_uuid: string;
  /** The merchant code, checked to be the merchant's own. */
  product_code: string;
}

/**
 * Why a return was refused: `malformed` (not base64, not a JSON object, a member missing or of the
 * wrong type), `signed-fields` (the list is unreadable or leaves out a field that must be signed),
 * `signature` (not eSewa's signature under this secret), `product-code` (signed, for another merchant).
 */
export type EpayReturnRefusal = 'malformed' | 'signed-fields' | 'signature' | 'product-code';

/** The reading of a return: its fields, or the refusal and a sentence for the log. */
export type EpayReturnReading = { ok: true; value: EpayReturn } | { ok: false; reason: EpayReturnRefusal; message: string };

/** The merchant a return must belong to. */
export interface EpayReturnOptions {
  /** The merchant's ePay secret key. */
  secretKey: string;
  /** The merchant's product code; a return for another one is refused. */
  productCode: string;
}

const refuse = (reason: EpayReturnRefusal, message: string): EpayReturnReading => ({ ok: false, reason, message });

/**
 * Decodes the redirect's base64 to text. Tolerates what a trip through URLs and forms does to it:
 * `+` turned into a space by form decoding, the URL-safe alphabet, missing padding.
 */
function decodeData(data: string): string | undefined {
  const standard = data.trim().replaceAll(' ', '+').replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (standard === '' || !/^[A-Za-z0-9+/]*$/.test(standard) || standard.length % 4 === 1) return undefined;
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** A member's text as the signed message holds it: a string's decoded value, a number's raw digits. */
function signedText(member: RawJsonMember): string | undefined {
  if (typeof member.value === 'string') return member.value;
  if (typeof member.value === 'number') return member.raw;
  return undefined;
}

/**
 * Reads and verifies the `data` of eSewa's success redirect. The message is rebuilt from the
 * payload's own `signed_field_names`, in its order (the list names itself), from each member's raw
 * text: a JSON number `1000.0` stays `1000.0`, where `JSON.parse` would give `1000` and break the
 * HMAC. `total_amount` is signed without its thousands comma (a UAT capture's `"2,700.0"` verifies
 * only as `2700.0`). The signature is compared in constant time; then the product code must be yours.
 *
 * eSewa's published return (UAT secret) signs
 * `transaction_code=000AWEO,status=COMPLETE,total_amount=1000.0,transaction_uuid=250610-162413,product_code=EPAYTEST,signed_field_names=transaction_code,status,total_amount,transaction_uuid,product_code,signed_field_names`
 * as `62GcfZTmVkzhtUeh+QJ1AqiJrjoWWGof3U+eTPTZ7fA=`; written `1000` the same payload does not verify.
 *
 * Never throws for bad input: every refusal is a reading with its reason. Rejects only for an empty
 * secret key (SignatureInputError), a setup mistake rather than a bad return.
 */
export async function readEpayReturn(data: string, options: EpayReturnOptions): Promise<EpayReturnReading> {
  const text = typeof data === 'string' ? decodeData(data) : undefined;
  if (text === undefined) return refuse('malformed', 'The return\'s data is not base64 of UTF-8 text.');
  let members: Map<string, RawJsonMember>;
  try {
    members = readRawJsonObject(text);
  } catch (error) {
    if (error instanceof RawJsonError) return refuse('malformed', `The return's data is not a JSON object: ${error.message}`);
    throw error;
  }
  for (const name of TEXT_MEMBERS) {
    if (typeof members.get(name)?.value !== 'string') return refuse('malformed', `The return has no "${name}" as text.`);
  }
  const amount = members.get('total_amount');
  const amountText = amount === undefined ? undefined : signedText(amount);
  const plainAmount = amountText === undefined ? undefined : epayAmountWithoutComma(amountText);
  if (amountText === undefined || plainAmount === undefined) {
    return refuse('malformed', `The return's total_amount is no amount: ${amount ? amount.raw : 'missing'}.`);
  }
  const value = (name: string) => members.get(name)?.value as string;

  let names: string[];
  try {
    names = parseSignedFieldNames(value('signed_field_names'));
  } catch (error) {
    if (error instanceof SignatureInputError) return refuse('signed-fields', error.message);
    throw error;
  }
  const unsigned = MUST_SIGN.filter((name) => !names.includes(name));
  if (unsigned.length > 0) return refuse('signed-fields', `The return's signature leaves out ${unsigned.join(', ')}.`);
  const pairs: string[] = [];
  for (const name of names) {
    const member = members.get(name);
    const signed = name === 'total_amount' ? plainAmount : member && signedText(member);
    if (signed === undefined) return refuse('malformed', `The return signs "${name}" but has no text or number for it.`);
    pairs.push(`${name}=${signed}`);
  }

  const productCode = value('product_code');
  if (!(await verifyMessage(pairs.join(','), value('signature'), options.secretKey))) {
    const hint = productCode === options.productCode ? '' : ` (it names product code ${JSON.stringify(productCode)}, not ${JSON.stringify(options.productCode)})`;
    return refuse('signature', `The return's signature is not eSewa's under this secret key${hint}.`);
  }
  if (productCode !== options.productCode) {
    return refuse('product-code', `The return is for product code ${JSON.stringify(productCode)}, not ${JSON.stringify(options.productCode)}.`);
  }
  return {
    ok: true,
    value: {
      transaction_code: value('transaction_code'),
      status: value('status'),
      total_amount: Number(plainAmount),
      total_amount_text: amountText,
      transaction_uuid: value('transaction_uuid'),
      product_code: productCode,
    },
  };
}
