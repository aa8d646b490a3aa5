export { instrumentAnthropic } from './instrumentAnthropic.js';
export type { InstrumentAnthropicOptions } from './instrumentAnthropic.js';
