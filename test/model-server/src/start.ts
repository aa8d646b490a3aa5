#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { ModelServer } from './ModelServer.js';

// `node test/model-server/dist/start.js --port 8787`: serves the recorded
// answers until SIGINT / SIGTERM, printing its origin on the first line.
const { values } = parseArgs({
  options: { port: { type: 'string', default: '8787' }, host: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be an integer 0-65535, got ${values.port}`);
  process.exit(2);
}
const server = await ModelServer.start({ port, host: values.host });
console.log(`model server on ${server.origin} (OpenAI: ${server.origin}/v1, Anthropic: ${server.origin})`);
const stop = () => void server.stop().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
