/**
 * Where two JSON-like values first differ, as a path and both sides, or
 * undefined when they agree: numbers within a relative 1e-9 (float sums in
 * another order), NaN equal to NaN, objects by their keys whatever the
 * order, arrays element by element. For parity tests between two paths that
 * must give the same numbers (`expect(firstDifference(a, b, 'x')).toBeUndefined()`).
 */
export function firstDifference(got: unknown, want: unknown, path: string): string | undefined {
  if (typeof want === 'number' && typeof got === 'number') {
    if (Number.isNaN(want) || Number.isNaN(got))
      return Number.isNaN(want) && Number.isNaN(got) ? undefined : `${path}: ${got} vs ${want}`;
    return Math.abs(got - want) <= 1e-9 * Math.max(1, Math.abs(want)) ? undefined : `${path}: ${got} vs ${want}`;
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return `${path}: not an array`;
    if (got.length !== want.length) return `${path}: length ${got.length} vs ${want.length}`;
    for (let i = 0; i < want.length; i++) {
      const diff = firstDifference(got[i], want[i], `${path}[${i}]`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  if (want !== null && typeof want === 'object') {
    if (got === null || typeof got !== 'object') return `${path}: ${JSON.stringify(got)} is not an object`;
    const keys = (o: object): string => JSON.stringify(Object.keys(o).sort());
    if (keys(got) !== keys(want)) return `${path}: keys ${keys(got)} vs ${keys(want)}`;
    for (const [k, w] of Object.entries(want)) {
      const diff = firstDifference((got as Record<string, unknown>)[k], w, `${path}.${k}`);
      if (diff !== undefined) return diff;
    }
    return undefined;
  }
  return Object.is(got, want) || (typeof got === 'bigint' && got === want)
    ? undefined
    : `${path}: ${String(got)} vs ${String(want)}`;
}
