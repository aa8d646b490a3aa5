/** A replacement for one method: gets the original (bound to its object). */
export type MethodWrapper = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown;

/** Dotted paths (`chat.completions.create`) → their wrappers. */
export type MethodTable = Readonly<Record<string, MethodWrapper>>;

/**
 * A proxy over `client` whose methods at the table's paths are wrapped;
 * everything else reads through to the client, unchanged. The client itself
 * is not modified.
 */
export function proxyMethods<C extends object>(client: C, table: MethodTable, prefix = ''): C {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(client, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== 'string') return value;
      const path = prefix === '' ? prop : `${prefix}.${prop}`;
      const wrapper = table[path];
      if (wrapper !== undefined && typeof value === 'function') {
        if (!cache.has(prop)) cache.set(prop, wrapper((value as (...a: unknown[]) => unknown).bind(target)));
        return cache.get(prop);
      }
      const below = Object.keys(table).some((p) => p.startsWith(`${path}.`));
      if (below && typeof value === 'object' && value !== null) {
        if (!cache.has(prop)) cache.set(prop, proxyMethods(value, table, path));
        return cache.get(prop);
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Replaces the methods at the table's paths on `client` itself (opt-in patching). Idempotent. */
export function patchMethods(client: object, table: MethodTable): void {
  for (const [path, wrapper] of Object.entries(table)) {
    const parts = path.split('.');
    const method = parts.pop()!;
    let owner: unknown = client;
    for (const part of parts)
      owner = owner === null || typeof owner !== 'object' ? undefined : Reflect.get(owner, part);
    if (owner === null || typeof owner !== 'object') continue;
    const current: unknown = Reflect.get(owner, method);
    if (typeof current !== 'function' || PATCHED.has(current)) continue;
    const wrapped = wrapper((current as (...a: unknown[]) => unknown).bind(owner));
    PATCHED.add(wrapped);
    Object.defineProperty(owner, method, { configurable: true, writable: true, value: wrapped });
  }
}

const PATCHED = new WeakSet<object>();
