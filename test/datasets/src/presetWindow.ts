const NS_PER_SECOND = 1_000_000_000n;

export interface PresetOptions {
  seed?: number;
  runs?: number;
  /** End of the window (ns since the epoch); default: now, read once. Pin it for byte-identical datasets. */
  endNs?: bigint;
  /** Window length; default 6 hours (the spans table keeps 30 days: never generate older data). */
  windowHours?: number;
  /** Share of llm spans with an explicit cost (default 0.3). */
  explicitCostShare?: number;
}

/** The preset's window: `windowHours` (default 6) ending at `endNs` (default now). */
export function presetWindow(opts: PresetOptions): { startNs: bigint; endNs: bigint } {
  const endNs = opts.endNs ?? BigInt(Date.now()) * 1_000_000n;
  return { startNs: endNs - BigInt(Math.round((opts.windowHours ?? 6) * 3600)) * NS_PER_SECOND, endNs };
}
