export { ModelServer } from './ModelServer.js';
export type { ModelRequest, ModelServerOptions } from './ModelServer.js';
export { RATE_LIMITED_MODEL, chooseAnswer } from './chooseAnswer.js';
export type { Answer } from './chooseAnswer.js';
export { recording, loadScenarios, chatUsage } from './recording.js';
export type { LlmRecording, Scenario } from './recording.js';
export { chatChunks } from './chatChunks.js';
