import type { z } from 'zod';
import { CliError } from './CliError.js';

/**
 * Validates command options with zod; a failure is a usage error naming the
 * option (`--max-spans-per-second`, or `flags[key]` where the flag is not
 * the field's name: `{ ruleId: '--rule' }`).
 */
export function parseOptions<T extends z.ZodType>(
  schema: T,
  raw: unknown,
  flags: Readonly<Record<string, string>> = {},
): z.infer<T> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const key = issue?.path[0];
  const option =
    typeof key === 'string'
      ? (flags[key] ??
        (key === 'id'
          ? 'project id'
          : key === 'keyId'
            ? 'key id'
            : key === 'runId'
              ? 'run id'
              : `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`))
      : 'options';
  throw new CliError(`invalid ${option}: ${issue?.message ?? 'invalid value'}`);
}
