import { CliError } from './CliError.js';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** `500ms`, `2s`, `1.5m`, `2h`, `7d` → milliseconds. A unit is required; zero and negatives are refused. */
export function parseDuration(text: string, what = 'duration'): number {
  const match = DURATION.exec(text.trim());
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined;
  if (match === null || unit === undefined)
    throw new CliError(`invalid ${what} "${text}": use a number and a unit, e.g. 500ms, 2s, 1m, 2h, 7d`);
  const ms = Number(match[1]) * UNIT_MS[unit];
  if (!(ms > 0) || !Number.isFinite(ms)) throw new CliError(`invalid ${what} "${text}": must be more than zero`);
  return ms;
}

/** A fraction in [0, 1] (`0.95`) or a percentage (`95%`). */
export function parseFraction(text: string, what: string): number {
  const trimmed = text.trim();
  const percent = trimmed.endsWith('%');
  const value = Number(percent ? trimmed.slice(0, -1) : trimmed) / (percent ? 100 : 1);
  if (trimmed === '' || trimmed === '%' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new CliError(`invalid ${what} "${text}": a fraction between 0 and 1 (0.95) or a percentage (95%)`);
  }
  return value;
}
