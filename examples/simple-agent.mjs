// A tiny agent instrumented with @telltale/sdk: plan → tool (retried) → llm →
// validate → act. The model and the weather API are simulated; the only
// network traffic is the OTLP export to the Telltale server.
//
//   pnpm build && node examples/simple-agent.mjs
//
// In your own project, import from '@telltale/sdk' instead of the built file.
import { act, init, llm, plan, run, shutdown, tool, validate } from '../packages/sdk/dist/index.js';

init({
  service: 'simple-agent',
  endpoint: process.env.TELLTALE_ENDPOINT ?? 'http://127.0.0.1:4318',
  apiKey: process.env.TELLTALE_API_KEY,
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A weather API that rate-limits one call in four. */
async function getWeather({ city }) {
  await sleep(50 + Math.random() * 100);
  if (Math.random() < 0.25) throw Object.assign(new Error('429 Too Many Requests'), { code: 'rate_limit_exceeded' });
  return { city, tempC: Math.round(5 + Math.random() * 20), sky: Math.random() < 0.5 ? 'sunny' : 'cloudy' };
}

/** A model that writes one sentence. */
async function complete(prompt) {
  await sleep(150 + Math.random() * 250);
  return { text: `Answer to "${prompt}"`, usage: { inputTokens: 420 + prompt.length, outputTokens: 60 } };
}

async function answer(question, city) {
  return run('weather-question', async (r) => {
    await plan('plan', () => ['get_weather', 'write', 'check', 'post'], { state: { question, city } });
    const weather = await tool('get_weather', { city }, getWeather, {
      retry: { attempts: 3, backoff: { initialMs: 100, jitter: true } },
    });
    const reply = await llm('write-answer', { model: 'gpt-4o-mini', provider: 'openai' }, async (step) => {
      const res = await complete(`${question} ${weather.tempC}°C ${weather.sky}`);
      // gpt-4o-mini list prices: $0.15 / M input tokens, $0.60 / M output tokens.
      step.recordUsage({ ...res.usage, costUsd: (res.usage.inputTokens * 0.15 + res.usage.outputTokens * 0.6) / 1e6 });
      return res.text;
    });
    const ok = await validate('mentions-city', (step) => {
      const verdict = { ok: reply.includes(city) };
      step.setOutputHash(verdict);
      // a failed check fails its step (a returned false would be a passed one)
      if (!verdict.ok) throw new CheckFailed(`the answer does not mention ${city}`);
      return true;
    }).catch((err) => (err instanceof CheckFailed ? false : Promise.reject(err)));
    if (!ok) {
      r.setOutcome('failure', 'answer does not mention the city');
      return;
    }
    await act('post-answer', () => console.log(`[${r.runId.slice(0, 8)}] ${reply}`), { sideEffect: true });
  });
}

class CheckFailed extends Error {}

for (const city of ['Paris', 'Lyon', 'Oslo', 'Lima', 'Kyoto']) {
  try {
    await answer(`What should I wear in ${city} today?`, city);
  } catch (err) {
    console.log(`run failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

await shutdown();
console.log('spans sent; open the Telltale dashboard');
