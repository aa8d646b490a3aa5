import { OtelAttr, TelltaleAttr } from '@telltale/semconv';
import { describe, expect, it } from 'vitest';
import { inMemoryTelltale } from './testing/inMemoryTelltale.js';

describe('GenAI agent conventions beside our own attributes', () => {
  it('marks run() as invoke_agent with the agent name, id and conversation, tool steps as execute_tool, llm steps as chat', async () => {
    const mem = inMemoryTelltale();
    await mem.telltale.run(
      'travel-agent',
      async () => {
        await mem.telltale.tool('get_weather', { city: 'Oslo' }, () => 'rain');
        await mem.telltale.llm('chat gpt-4o', { model: 'gpt-4o', provider: 'openai' }, () => 'ok');
        await mem.telltale.llm('embed', { model: 'text-embedding-3-small', operation: 'embeddings' }, () => []);
      },
      { agentId: 'agent-7', sessionId: 'conv-1' },
    );
    expect(mem.span('travel-agent').attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'run',
      [OtelAttr.genAiOperationName]: 'invoke_agent',
      [OtelAttr.genAiAgentName]: 'travel-agent',
      [OtelAttr.genAiAgentId]: 'agent-7',
      [OtelAttr.genAiConversationId]: 'conv-1',
    });
    expect(mem.span('get_weather').attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'tool',
      [OtelAttr.genAiOperationName]: 'execute_tool',
      [OtelAttr.genAiToolName]: 'get_weather',
    });
    expect(mem.span('chat gpt-4o').attributes).toMatchObject({
      [TelltaleAttr.stepKind]: 'llm',
      [OtelAttr.genAiOperationName]: 'chat',
      [OtelAttr.genAiRequestModel]: 'gpt-4o',
      [OtelAttr.genAiProviderName]: 'openai',
    });
    expect(mem.span('embed').attributes[OtelAttr.genAiOperationName]).toBe('embeddings');
  });

  it('leaves agent id and conversation out when not given', async () => {
    const mem = inMemoryTelltale();
    await mem.telltale.run('plain', () => undefined);
    const attrs = mem.span('plain').attributes;
    expect(attrs[OtelAttr.genAiOperationName]).toBe('invoke_agent');
    expect(attrs[OtelAttr.genAiAgentId]).toBeUndefined();
    expect(attrs[OtelAttr.genAiConversationId]).toBeUndefined();
  });
});
