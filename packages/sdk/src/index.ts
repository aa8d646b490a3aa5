export { init, shutdown } from './init.js';
export type { TelltaleInitOptions, TelltaleHandle, ShutdownOptions } from './init.js';
export { run, plan, act, validate, tool, llm, step, retry, defaultTelltale } from './defaultTelltale.js';
export { createTelltale } from './createTelltale.js';
export type { Telltale, CreateTelltaleOptions } from './createTelltale.js';
export { createTracerProvider } from './createTracerProvider.js';
export { createTelltaleExporter, DEFAULT_ENDPOINT } from './createTelltaleExporter.js';
export type { TelltaleExporterOptions } from './createTelltaleExporter.js';
export { telltaleSpanProcessors } from './telltaleSpanProcessors.js';
export type { TelltaleSpanProcessorsOptions } from './telltaleSpanProcessors.js';
export type { TracerProviderOptions, TelltaleTracerProvider } from './createTracerProvider.js';
export type { SpanExporter, SpanProcessor, ReadableSpan } from '@opentelemetry/sdk-trace-base';
export { RunIdSpanProcessor } from './RunIdSpanProcessor.js';
export { stableHash } from './stableHash.js';
export { setErrorHandler } from './errorHandler.js';
export { telltaleStats } from './telltaleStats.js';
export type { TelltaleStats } from './telltaleStats.js';
export { RunGuardError } from './RunGuardError.js';
export {
  redactApiKeys,
  redactBearerTokens,
  redactPrivateKeys,
  redactEmails,
  redactCardNumbers,
  DEFAULT_REDACTORS,
  luhnValid,
} from './redactors.js';
export type { Redactor } from './redactors.js';
export type { CaptureMode, ContentOptions } from './internal/contentCapture.js';
export type { TelltaleErrorHandler } from './errorHandler.js';
export type {
  StepHandle,
  RunHandle,
  DeclaredRunOutcome,
  LlmUsage,
  LlmModel,
  StepOptions,
  RunOptions,
  RunGuard,
  RetryOptions,
  RetryPolicy,
  Backoff,
  BackoffPolicy,
  StepKindName,
  StepFn,
} from './types.js';
