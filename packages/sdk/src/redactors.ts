/**
 * A redactor rewrites one string of captured content before it leaves the
 * process. It runs on every string leaf (message texts, tool argument and
 * result values), never on the JSON around them, so it cannot break it.
 */
export type Redactor = (text: string) => string;

const mark = (kind: string): string => `[REDACTED:${kind}]`;

/** Provider keys by their prefixes: `sk-…` (OpenAI, Anthropic), `AKIA…` (AWS), `ghp_…` and friends (GitHub), and `api_key=…` pairs. */
export const redactApiKeys: Redactor = (text) =>
  text
    .replace(/\bsk-[A-Za-z0-9_-]{16,}/g, mark('api_key'))
    .replace(/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, mark('api_key'))
    .replace(/\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, mark('api_key'))
    .replace(/\b(api[_-]?key|apikey|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"'&,;]{6,}/gi, `$1$2${mark('api_key')}`);

/** `Bearer <token>` (an authorization header's credentials). */
export const redactBearerTokens: Redactor = (text) =>
  text.replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, `Bearer ${mark('token')}`);

/** E-mail addresses. */
export const redactEmails: Redactor = (text) =>
  text.replace(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g, mark('email'));

/** Payment card numbers: 13–19 digits (spaces or dashes between them) that pass the Luhn check. */
export const redactCardNumbers: Redactor = (text) =>
  text.replace(/\b\d(?:[ -]?\d){12,18}\b/g, (match) => (luhnValid(match.replace(/\D/g, '')) ? mark('card') : match));

/** The built-in redactors, applied by default whenever content is captured. */
export const DEFAULT_REDACTORS: readonly Redactor[] = Object.freeze([
  redactApiKeys,
  redactBearerTokens,
  redactEmails,
  redactCardNumbers,
]);

/** The Luhn checksum of a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
