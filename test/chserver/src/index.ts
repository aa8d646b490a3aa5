export { startChServer, ChServerProcess } from './ChServerProcess.js';
export type { ChServerStartOptions, ChServerExit } from './ChServerProcess.js';
export { CONTROL_PATH, FaultModeSchema } from './FaultMode.js';
export type { FaultMode } from './FaultMode.js';
