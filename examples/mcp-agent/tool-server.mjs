// A local MCP tool server over stdio, instrumented with @telltale/sdk: its
// spans join the calling agent's trace and run (the trace context arrives in
// each request's params._meta). Started by agent.mjs; not meant to be run alone.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { init, shutdown, step } from '@telltale/sdk';
import { instrumentMcpServer } from '@telltale/sdk/mcp';
import { z } from 'zod';

init({
  service: 'mcp-tool-server',
  endpoint: process.env.TELLTALE_ENDPOINT ?? 'http://127.0.0.1:4318',
  apiKey: process.env.TELLTALE_API_KEY,
});

/** A simulated weather service: known cities only. */
const WEATHER = { Oslo: { tempC: 4, sky: 'rain' }, Lisbon: { tempC: 21, sky: 'sunny' } };

const server = new McpServer({ name: 'weather-tools', version: '1.0.0' });
server.registerTool(
  'get_weather',
  { description: 'Current weather of a city', inputSchema: { city: z.string() } },
  async ({ city }) => {
    // a step of the tool server's own: recorded in the agent's run, under this call
    const weather = await step('retrieval', 'weather-lookup', () => WEATHER[city]);
    if (weather === undefined) return { content: [{ type: 'text', text: `unknown city: ${city}` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify({ city, ...weather }) }] };
  },
);
server.registerTool(
  'to_fahrenheit',
  { description: 'Converts °C to °F', inputSchema: { celsius: z.number() } },
  ({ celsius }) => ({ content: [{ type: 'text', text: String(Math.round(celsius * 1.8 + 32)) }] }),
);
instrumentMcpServer(server);

// the agent closes our stdin when it is done: flush the spans, then exit
process.stdin.once('end', () => {
  void shutdown().then(() => process.exit(0));
});
await server.connect(new StdioServerTransport());
