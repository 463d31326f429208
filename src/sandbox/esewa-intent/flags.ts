/**
 * The intent service's flags of the sandbox's command line (its links origin, bookings, callbacks,
 * strictness and profile): their help lines, their examples, how they are read into its options, and
 * the lines the running sandbox prints about it. `command.ts` keeps the shared flags and the parsing.
 */
import type { Sandbox } from '../index.js';
import { INTENT_SANDBOX_DEFAULTS, type IntentSandboxOptions } from './options.js';
import { PROFILES, type ProfileName } from './profiles.js';

/** The help lines of the intent service's flags. */
export const INTENT_USAGE = `  --links-port <n>        links origin port, where deeplinks open the wallet page (default ${INTENT_SANDBOX_DEFAULTS.cliLinksPort})
  --booking-ttl <seconds> expiry of an unpaid booking (default ${INTENT_SANDBOX_DEFAULTS.bookingTtlMs / 1000})
  --callback-attempts <n> callback delivery attempts (default ${INTENT_SANDBOX_DEFAULTS.callbackRetry.attempts})
  --callback-delay <ms>   first retry delay, doubled on each retry (default ${INTENT_SANDBOX_DEFAULTS.callbackRetry.baseDelayMs})
  --strict                refuse request fields the spec does not list (IP-422); by default they are
                          ignored with a warning in the log
  --profile <name>        spec (default) or esewa-uat (the provider's test service as public facts show it)`;

/** A right value of each of its flags, quoted in their errors. */
export const INTENT_FLAG_EXAMPLES: Readonly<Record<string, string>> = {
  'links-port': '--links-port 4011',
  'booking-ttl': '--booking-ttl 900',
  'callback-attempts': '--callback-attempts 5',
  'callback-delay': '--callback-delay 1000',
  strict: '--strict',
  profile: '--profile esewa-uat',
};

/** Its flags as `parseArgs` reads them. */
export const INTENT_FLAGS = {
  'links-port': { type: 'string' },
  'booking-ttl': { type: 'string' },
  'callback-attempts': { type: 'string' },
  'callback-delay': { type: 'string' },
  strict: { type: 'boolean' },
  profile: { type: 'string' },
} as const;

/** The values `parseArgs` gave for its flags. */
export interface IntentFlagValues {
  'links-port'?: string | undefined;
  'booking-ttl'?: string | undefined;
  'callback-attempts'?: string | undefined;
  'callback-delay'?: string | undefined;
  strict?: boolean | undefined;
  profile?: string | undefined;
}

/** How the command line reads a whole number and refuses a flag; shared with its other flags. */
export interface FlagReaders {
  integer(flag: string, text: string | undefined, min: number, max: number): number | undefined;
  fail(flag: string, problem: string): Error;
}

/**
 * The intent service's options from its flags: the links port (which must differ from `port`), the
 * booking lifetime, the callback retries (defaults filled in), strictness and the profile.
 */
export function intentFlagOptions(values: IntentFlagValues, port: number, { integer, fail }: FlagReaders): IntentSandboxOptions & { linksPort: number } {
  const linksPort = integer('links-port', values['links-port'], 0, 65535) ?? INTENT_SANDBOX_DEFAULTS.cliLinksPort;
  if (port !== 0 && port === linksPort) throw fail('links-port', `--port and --links-port must differ; both are ${port}`);
  const profile = values.profile as ProfileName | undefined;
  if (profile !== undefined && !Object.hasOwn(PROFILES, profile)) {
    throw fail('profile', `--profile must be one of ${Object.keys(PROFILES).join(', ')}; got "${profile}"`);
  }
  const ttlSeconds = integer('booking-ttl', values['booking-ttl'], 1, 7 * 24 * 3600);
  const attempts = integer('callback-attempts', values['callback-attempts'], 1, 20);
  const baseDelayMs = integer('callback-delay', values['callback-delay'], 0, 3_600_000);
  return {
    linksPort,
    ...(ttlSeconds !== undefined ? { bookingTtlMs: ttlSeconds * 1000 } : {}),
    callbackRetry: {
      attempts: attempts ?? INTENT_SANDBOX_DEFAULTS.callbackRetry.attempts,
      baseDelayMs: baseDelayMs ?? INTENT_SANDBOX_DEFAULTS.callbackRetry.baseDelayMs,
    },
    ...(values.strict ? { strict: true } : {}),
    ...(profile !== undefined ? { profile } : {}),
  };
}

/** What the started sandbox prints about the intent service: its addresses, then how it takes unknown fields. */
export function intentBanner(sandbox: Pick<Sandbox, 'baseUrl' | 'webPaymentUrl' | 'linksUrl'>, strict: boolean | undefined): { addresses: string[]; fields: string } {
  return {
    addresses: [
      `  serviceUrl:          ${sandbox.baseUrl}   (the service's base_url: give the kit this, nothing after it)`,
      `  API:                 ${sandbox.baseUrl}/api/client/intent/payment/{book,status,cancel}`,
      `  web payment page:    ${sandbox.webPaymentUrl}`,
      `  links (links_url):   ${sandbox.linksUrl}/pay/{booking_id}`,
    ],
    fields: `  unknown fields:      ${strict ? 'refused with IP-422 (--strict)' : 'ignored, with a warning line (--strict refuses them)'}`,
  };
}
