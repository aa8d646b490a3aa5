import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartConfigSchema } from '../config.js';
import { startServer, type RunningServer } from '../http/startServer.js';
import { sendScriptedRuns, type ScriptedRun } from './sendScriptedRuns.js';

/** An agent's scripted runs (service `svc`). */
export interface ScriptedAgent {
  agent: string;
  runs: readonly ScriptedRun[];
}

/**
 * A server on a fresh data directory (any free ports, silent) holding the
 * agents' scripted runs, stored by the time it resolves; `stop` closes the
 * server and removes the directory.
 */
export async function startScriptedServer(
  agents: readonly ScriptedAgent[],
): Promise<{ server: RunningServer; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'telltale-api-'));
  const server = await startServer(StartConfigSchema.parse({ port: 0, grpcPort: 0, dataDir, logLevel: 'silent' }));
  const stop = async (): Promise<void> => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (const { agent, runs } of agents) await sendScriptedRuns({ endpoint: server.url, service: 'svc', agent, runs });
  } catch (err) {
    await stop();
    throw err;
  }
  return { server, stop };
}

/** One call of the server's API (`/api/v1` + path), a JSON body if given: its status and parsed answer. */
export async function callApi<T>(
  server: RunningServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    signal: AbortSignal.timeout(20_000),
  });
  return { status: res.status, body: (await res.json()) as T };
}
