import { ChException } from './ChException.js';

/** Codes for the few names this server raises itself when the engine cannot say (ClickHouse's numbering). */
const FALLBACK: Readonly<Record<string, number>> = { STD_EXCEPTION: 1001 };

/**
 * ClickHouse's error names and codes, read from the engine itself
 * (`errorCodeToName`), so the server never carries a hand-copied table.
 */
export class ErrorCatalog {
  private readonly codes = new Map<string, number>();
  private readonly names = new Map<number, string>();

  constructor(entries: Iterable<readonly [number, string]>) {
    for (const [code, name] of entries) {
      this.codes.set(name, code);
      this.names.set(code, name);
    }
  }

  codeOf(name: string): number {
    return this.codes.get(name) ?? FALLBACK[name] ?? 1001;
  }

  nameOf(code: number): string {
    return this.names.get(code) ?? 'UNKNOWN_EXCEPTION';
  }

  /** An exception by name, with the engine's code for it. */
  error(name: string, message: string): ChException {
    return new ChException(this.codeOf(name), name, message);
  }

  /**
   * Normalises anything thrown into a ChException. chDB's messages carry
   * `Code: N. DB::Exception: … (NAME)`, sometimes nested twice with a
   * `(version …)` in between: the innermost message is kept.
   */
  from(err: unknown): ChException {
    if (err instanceof ChException) return err;
    const raw = err instanceof Error ? err.message : String(err);
    const given = (err as { clickhouseCode?: unknown } | null)?.clickhouseCode;
    const prefixed = /^(?:Code: (\d+)\. (?:DB::Exception|Exception): )+/.exec(raw);
    const code = typeof given === 'number' ? given : prefixed?.[1] === undefined ? undefined : Number(prefixed[1]);
    let message = prefixed === null ? raw : raw.slice(prefixed[0].length);
    let type: string | undefined;
    for (;;) {
      const suffix = /\.?\s*\(([A-Z][A-Z0-9_]{2,})\)(?:\s*\(version [^()]*(?:\([^()]*\))?[^()]*\))?\.?\s*$/.exec(
        message,
      );
      if (suffix === null) break;
      type ??= suffix[1];
      message = message.slice(0, suffix.index);
    }
    if (code === undefined) return this.error(type ?? 'STD_EXCEPTION', message.trim() || 'Unknown error');
    return new ChException(code, type ?? this.nameOf(code), message.trim());
  }
}
