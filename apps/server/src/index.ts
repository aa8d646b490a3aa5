export { startServer } from './http/startServer.js';
export type { RunningServer } from './http/startServer.js';
export { StartConfigSchema } from './config.js';
export type { StartConfig } from './config.js';
