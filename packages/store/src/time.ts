const NS_PER_SECOND = 1_000_000_000n;

/** Nanoseconds since the epoch as ClickHouse DateTime64(9) text: `seconds.nanoseconds`. */
export function nanosToDateTime64(ns: bigint): string {
  const sign = ns < 0n ? '-' : '';
  const abs = ns < 0n ? -ns : ns;
  return `${sign}${abs / NS_PER_SECOND}.${(abs % NS_PER_SECOND).toString().padStart(9, '0')}`;
}

/** Accepts ISO-8601 text or unix milliseconds and returns DateTime64(9) text. */
