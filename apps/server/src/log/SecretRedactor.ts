/** What replaces a secret in logs and error lines. */
export const REDACTED = '[redacted]';

/**
 * Secrets recognised by their shape. None of the patterns matches a quote or
 * a backslash, so replacing them inside a JSON line keeps it valid JSON.
 */
const PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  // API keys: the kind and the public key id stay, the secret goes
  [/\btt_([a-z]+)_([0-9A-Za-z]+)_[0-9A-Za-z]+/g, `tt_$1_$2_${REDACTED}`],
  // webhook signing secrets (base64)
  [/\bwhsec_[A-Za-z0-9+/=_-]+/g, `whsec_${REDACTED}`],
  // credentials in a URL: scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@"\\]+@/gi, `$1${REDACTED}@`],
  // HTTP authorization values (Bearer keys, Basic user:password)
  [/\b(bearer|basic)(\s+|%20)[A-Za-z0-9._~+/=-]{8,}/gi, `$1$2${REDACTED}`],
];

/** Shorter configured secrets are not searched for (they would blank out ordinary words). */
const MIN_SECRET_LENGTH = 4;

/**
 * Removes secrets from text bound for a log or the terminal: API keys,
 * webhook secrets, URL credentials and authorization values by their shape,
 * plus the configured secrets (ClickHouse password, admin key) by value.
 */
export class SecretRedactor {
  private readonly plain: string[];
  private readonly escaped: string[];

  constructor(secrets: ReadonlyArray<string | undefined> = []) {
    const known = [
      ...new Set(secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET_LENGTH)),
    ].sort((a, b) => b.length - a.length);
    this.plain = known;
    this.escaped = known.map((s) => JSON.stringify(s).slice(1, -1));
  }

  /** Plain text (an error line on stderr). */
  text(text: string): string {
    return this.patterns(this.replaceAll(text, this.plain));
  }

  /** One serialised JSON log line: secrets are matched as they appear inside JSON strings. */
  jsonLine(line: string): string {
    return this.patterns(this.replaceAll(line, this.escaped));
  }

  private replaceAll(text: string, secrets: readonly string[]): string {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  private patterns(text: string): string {
    let out = text;
    for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }
}

/** A URL for display: credentials removed (`http://[redacted]@host`), unparsable text redacted by shape. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return new SecretRedactor().text(url);
  }
}

/** Configuration keys whose values are secrets (`clickhousePassword`, `adminKey`, `metricsToken`, `webhookSecret`…). */
export const SECRET_KEY = /password|secret|token|key$/i;

/** The string values of a configuration's secret fields, for SecretRedactor. */
export function secretValuesOf(config: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(config).flatMap(([key, value]) =>
    SECRET_KEY.test(key) && typeof value === 'string' ? [value] : [],
  );
}
