export { instrumentMcpClient } from './instrumentMcpClient.js';
export type { InstrumentMcpClientOptions } from './instrumentMcpClient.js';
export { instrumentMcpServer } from './instrumentMcpServer.js';
export type { InstrumentMcpServerOptions } from './instrumentMcpServer.js';
