// An agent that calls tools on a local MCP server (tool-server.mjs, started
// over stdio), instrumented with @telltale/sdk: each tools/call is a tool step
// of the agent's run, and the tool server's spans join the run.
//
//   pnpm build && pnpm example:mcp      # TELLTALE_ENDPOINT / TELLTALE_API_KEY to point elsewhere
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { init, llm, plan, run, shutdown } from '@telltale/sdk';
import { instrumentMcpClient } from '@telltale/sdk/mcp';

const endpoint = process.env.TELLTALE_ENDPOINT ?? 'http://127.0.0.1:4318';
init({ service: 'mcp-agent', endpoint, apiKey: process.env.TELLTALE_API_KEY });

const client = instrumentMcpClient(new Client({ name: 'mcp-agent', version: '1.0.0' }));
const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => typeof v === 'string'));
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [fileURLToPath(new URL('./tool-server.mjs', import.meta.url))],
    env: { ...env, TELLTALE_ENDPOINT: endpoint },
  }),
);

const textOf = (result) => result.content.find((c) => c.type === 'text')?.text ?? '';

/** One question: plan → get_weather (MCP) → to_fahrenheit (MCP) → a simulated model writes the answer. */
async function answer(city) {
  return run(
    'trip-planner',
    async (r) => {
      const { tools } = await plan('plan', () => client.listTools(), { state: { city } });
      if (!tools.some((t) => t.name === 'get_weather')) throw new Error('the tool server has no get_weather');
      const weather = await client.callTool({ name: 'get_weather', arguments: { city } });
      if (weather.isError) {
        r.setOutcome('failure', textOf(weather));
        return { runId: r.runId, city, answer: null };
      }
      const { tempC, sky } = JSON.parse(textOf(weather));
      const tempF = textOf(await client.callTool({ name: 'to_fahrenheit', arguments: { celsius: tempC } }));
      const text = await llm('write-answer', { model: 'gpt-4o-mini', provider: 'openai' }, (step) => {
        step.recordUsage({ inputTokens: 380, outputTokens: 42 });
        return `${city}: ${sky}, ${tempC}°C (${tempF}°F).`;
      });
      return { runId: r.runId, city, answer: text };
    },
    { sessionId: 'mcp-example' },
  );
}

try {
  for (const city of ['Oslo', 'Lisbon', 'Atlantis']) console.log(JSON.stringify(await answer(city)));
} finally {
  await client.close();
  await shutdown();
}
