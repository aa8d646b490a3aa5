import type { z } from 'zod';

/** The parts of a zod schema's definition this reads (zod 4 `def`). */
interface Def {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: readonly z.ZodType[];
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
  format?: string;
  protocol?: RegExp;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

function describeNumber(schema: z.ZodType): string {
  const n = schema as unknown as { minValue: number | null; maxValue: number | null; isInt: boolean };
  const kind = n.isInt ? 'an integer' : 'a number';
  const min =
    n.minValue !== null && Number.isFinite(n.minValue) && n.minValue > Number.MIN_SAFE_INTEGER ? n.minValue : undefined;
  const max =
    n.maxValue !== null && Number.isFinite(n.maxValue) && n.maxValue < Number.MAX_SAFE_INTEGER ? n.maxValue : undefined;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  if (max !== undefined) return `${kind} of at most ${max}`;
  return kind;
}

function describeString(schema: z.ZodType, def: Def): string {
  if (def.format === 'url') {
    const protocols = ['http', 'https', 'ftp'].filter((p) => def.protocol?.test(p) ?? true);
    return protocols.length > 0 && def.protocol !== undefined
      ? `a URL starting ${protocols.map((p) => `${p}://`).join(' or ')}`
      : 'a URL';
  }
  const min = (schema as unknown as { minLength: number | null }).minLength ?? 0;
  return min > 1 ? `text of at least ${min} characters` : min === 1 ? 'a non-empty value' : 'text';
}

/**
 * What a config field accepts, in words, read from its schema: "an integer
 * from 0 to 65535", "one of keys, none", "an integer from 0 to 65535 or off".
 * Undefined when the schema says nothing a reader could use.
 */
export function describeExpected(schema: z.ZodType): string | undefined {
  const def = defOf(schema);
  switch (def.type) {
    case 'default':
    case 'optional':
    case 'nullable':
    case 'prefault':
      return def.innerType === undefined ? undefined : describeExpected(def.innerType);
    case 'pipe':
      return def.in === undefined ? undefined : describeExpected(def.in);
    case 'number':
      return describeNumber(schema);
    case 'boolean':
      return 'true, false, 1 or 0';
    case 'string':
      return describeString(schema, def);
    case 'enum':
      return `one of ${Object.values(def.entries ?? {}).join(', ')}`;
    case 'literal':
      return (def.values ?? []).map(String).join(' or ');
    case 'union': {
      const parts = (def.options ?? []).map(describeExpected);
      return parts.every((p) => p !== undefined) ? parts.join(' or ') : undefined;
    }
    default:
      return undefined;
  }
}
