export { instrumentOpenAI } from './instrumentOpenAI.js';
export type { InstrumentOpenAIOptions } from './instrumentOpenAI.js';
