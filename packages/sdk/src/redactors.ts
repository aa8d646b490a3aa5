/**
 * A redactor rewrites one string of captured content before it leaves the
 * process. It runs on every string leaf (message texts, tool argument and
 * result values), never on the JSON around them, so it cannot break it.
 */
export type Redactor = (text: string) => string;

const mark = (kind: string): string => `[REDACTED:${kind}]`;

/**
 * Secret keys by their published prefixes, and `api_key=…` pairs:
 * - model providers: `sk-…` (OpenAI, Anthropic), `gsk_…` (Groq), `xai-…`
 *   (xAI), `hf_…` (Hugging Face), `r8_…` (Replicate), `AIza…` (Google);
 * - clouds and code hosts: `AKIA…` / `ASIA…` (AWS access key ids), `ghp_…`
 *   and the other GitHub token prefixes, `github_pat_…`, `glpat-…` (GitLab),
 *   `npm_…`;
 * - payments and chat: `sk_live_…` / `sk_test_…` / `rk_…` (Stripe secret
 *   and restricted keys), `whsec_…` (webhook signing secrets), `xoxb-…` and
 *   the other Slack token prefixes;
 * - Telltale's own keys (`tt_ingest_…`, `tt_read_…`).
 */
export const redactApiKeys: Redactor = (text) =>
  text
    .replace(PREFIXED_KEYS, mark('api_key'))
    .replace(/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, mark('api_key'))
    .replace(/\bAIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g, mark('api_key'))
    .replace(/\b(api[_-]?key|apikey|x-api-key)(["']?\s*[:=]\s*["']?)[^\s"'&,;]{6,}/gi, `$1$2${mark('api_key')}`);

/**
 * Keys whose prefix names them, each followed by at least 16 key characters
 * (so `sk-learn` or `hf_hub` in prose stay).
 */
const PREFIXED_KEYS = new RegExp(
  `\\b(?:${[
    'sk-',
    'sk_live_',
    'sk_test_',
    'rk_live_',
    'rk_test_',
    'whsec_',
    'gsk_',
    'xai-',
    'hf_',
    'r8_',
    'gh[pousr]_',
    'github_pat_',
    'glpat-',
    'npm_',
    'xox[abposr]-',
    'tt_(?:ingest|read)_',
  ].join('|')})[A-Za-z0-9_-]{16,}`,
  'g',
);

/** `Bearer <token>` (an authorization header's credentials), and JSON Web Tokens wherever they stand. */
export const redactBearerTokens: Redactor = (text) =>
  text
    .replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, `Bearer ${mark('token')}`)
    .replace(/\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, mark('token'));

/** PEM private key blocks (`-----BEGIN … PRIVATE KEY-----` to its END line), and passwords in URLs (`scheme://user:password@host`). */
export const redactPrivateKeys: Redactor = (text) =>
  text
    .replace(/-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?-----END \1PRIVATE KEY-----/g, mark('private_key'))
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]+):[^\s/?#@]+@/gi, `$1:${mark('password')}@`);

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
  redactPrivateKeys,
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
