/**
 * The value of one sample in Prometheus text exposition: `name` with exactly
 * these labels (in any order); undefined when there is no such sample.
 */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (match === null || match[1] !== name) continue;
    const found: Record<string, string> = {};
    for (const m of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) found[m[1]!] = m[2]!;
    const wanted = Object.entries(labels);
    if (wanted.length !== Object.keys(found).length || wanted.some(([k, v]) => found[k] !== v)) continue;
    return Number(match[3]);
  }
  return undefined;
}
