import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError, type Option } from 'commander';
import { TelltaleErrorCode } from '@telltale/semconv';
import type { z } from 'zod';
import { StartConfigSchema, type StartConfig } from '../config.js';
import { SECRET_KEY, SecretRedactor } from '../log/SecretRedactor.js';
import { CliError, EXIT } from './CliError.js';
import { describeExpected } from './describeExpected.js';
import { addStartOptions, envVarOf } from './startOptions.js';

export type Env = Readonly<Record<string, string | undefined>>;

/** Values of a boolean flag's variable. */
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, 1: true, 0: false };

interface Given {
  option: Option;
  variable: string;
  /** The raw value taken (flag or variable), for the error line. */
  value: unknown;
}

function optionsOf(command: Command): Option[] {
  return (command.options as Option[]).filter(
    (o) => o.long !== undefined && o.long !== '--help' && o.long !== '--version',
  );
}

function badValue(given: Given, expected: string): CliError {
  const flag = given.option.long ?? given.option.flags;
  // a secret's value is never echoed
  const shown = SECRET_KEY.test(given.option.attributeName())
    ? ''
    : `, got ${JSON.stringify(new SecretRedactor().text(String(given.value)))}`;
  return new CliError(
    `${flag} (${given.variable}) must be ${expected}${shown}`,
    EXIT.USAGE,
    TelltaleErrorCode.INVALID_CONFIG,
  );
}

/** The one line for a schema failure: the flag, its variable, what it accepts, the value given. */
function issueError(issue: z.core.$ZodIssue, given: ReadonlyMap<string, Given>): CliError {
  const key = issue.path[0];
  const field = typeof key === 'string' ? given.get(key) : undefined;
  if (field === undefined)
    return new CliError(`invalid configuration: ${issue.message}`, EXIT.USAGE, TelltaleErrorCode.INVALID_CONFIG);
  const schema = StartConfigSchema.shape[key as keyof typeof StartConfigSchema.shape] as z.ZodType | undefined;
  // a refinement says what it checks in its message; otherwise the schema says what it accepts
  const expected =
    issue.code === 'custom'
      ? issue.message
      : ((schema === undefined ? undefined : describeExpected(schema)) ?? issue.message);
  return badValue(field, expected);
}

/**
 * The configuration of `telltale start` from a parsed command and the
 * environment. Each option's value comes from its flag, else from its
 * variable (`--grpc-port` → TELLTALE_GRPC_PORT, for every option, present
 * and future), else its default; an empty value counts as not given. A
 * boolean flag's variable takes true/false/1/0. A bad value throws a
 * CliError (exit 2) whose message is one line naming flag and variable.
 */
export function startConfigOf(command: Command, env: Env): StartConfig {
  const raw: Record<string, unknown> = {};
  const given = new Map<string, Given>();
  for (const option of optionsOf(command)) {
    const key = option.attributeName();
    const variable = envVarOf(option.long!);
    const fromFlag: unknown = command.getOptionValueSource(key) === 'cli' ? command.getOptionValue(key) : undefined;
    const fromEnv = env[variable];
    let value: unknown;
    if (fromFlag !== undefined && fromFlag !== '') value = fromFlag;
    else if (fromEnv !== undefined && fromEnv.trim() !== '') {
      value = fromEnv;
      if (!option.required && !option.optional) {
        const parsed = BOOLEANS[fromEnv.trim().toLowerCase()];
        if (parsed === undefined) throw badValue({ option, variable, value: fromEnv }, 'true, false, 1 or 0');
        value = parsed;
      }
    } else value = option.defaultValue;
    if (value === undefined) continue;
    raw[key] = value;
    given.set(key, { option, variable, value });
  }
  const result = StartConfigSchema.safeParse(raw);
  if (!result.success) throw issueError(result.error.issues[0]!, given);
  if (result.data.clickhouseCluster !== undefined && result.data.clickhouseUrl === undefined)
    throw new CliError(
      '--clickhouse-cluster (TELLTALE_CLICKHOUSE_CLUSTER) needs a remote ClickHouse: set --clickhouse-url (TELLTALE_CLICKHOUSE_URL) too (the embedded engine is a single node)',
      EXIT.USAGE,
      TelltaleErrorCode.INVALID_CONFIG,
    );
  const webDir = result.data.webDir;
  if (webDir !== undefined && !existsSync(join(webDir, 'index.html')))
    throw badValue(given.get('webDir')!, "a directory holding the dashboard's build (its index.html)");
  return result.data;
}

/**
 * `telltale start <argv>` with environment `env`, resolved as the CLI does:
 * a pure function of its arguments (process.env is not read).
 */
export function resolveStartConfig(argv: readonly string[], env: Env): StartConfig {
  const command = addStartOptions(new Command('start'))
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  try {
    command.parse([...argv], { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) throw new CliError(err.message.replace(/^error: /, ''), EXIT.USAGE);
    throw err;
  }
  return startConfigOf(command, env);
}
