export { telltaleTelemetry } from './telltaleTelemetry.js';
export type { TelltaleTelemetryOptions, AiSdkTelemetrySettings } from './telltaleTelemetry.js';
