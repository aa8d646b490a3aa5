import { trace } from '@opentelemetry/api';
import type { AttributeValue, Tracer, TracerProvider } from '@opentelemetry/api';
import { SDK_NAME, SDK_VERSION } from '../internal/version.js';

export interface TelltaleTelemetryOptions {
  /** Where the AI SDK's spans go (default: the global provider, set up by `init`). */
  tracerProvider?: TracerProvider;
  /** `ai.telemetry.functionId`: names the call site (e.g. `support-agent`). */
  functionId?: string;
  /** `ai.telemetry.metadata.*`; `sessionId` groups runs into a session. */
  metadata?: Record<string, AttributeValue>;
  /** Record prompts and tool arguments (default true: tool arguments feed repeated-action detection). */
  recordInputs?: boolean;
  /** Record model outputs (default true). */
  recordOutputs?: boolean;
}

/** The shape of the AI SDK's `experimental_telemetry` setting. */
export interface AiSdkTelemetrySettings {
  isEnabled: true;
  tracer: Tracer;
  functionId?: string;
  metadata?: Record<string, AttributeValue>;
  recordInputs?: boolean;
  recordOutputs?: boolean;
}

/**
 * The Vercel AI SDK's `experimental_telemetry` setting that sends its spans
 * to Telltale: each model call (`ai.generateText.doGenerate`,
 * `ai.streamText.doStream`) becomes an llm step and each tool execution
 * (`ai.toolCall`) a tool step. Inside `run()` they join the run.
 */
export function telltaleTelemetry(options: TelltaleTelemetryOptions = {}): AiSdkTelemetrySettings {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const settings: AiSdkTelemetrySettings = {
    isEnabled: true,
    tracer: provider.getTracer(`${SDK_NAME}/ai`, SDK_VERSION),
  };
  if (options.functionId !== undefined) settings.functionId = options.functionId;
  if (options.metadata !== undefined) settings.metadata = options.metadata;
  if (options.recordInputs !== undefined) settings.recordInputs = options.recordInputs;
  if (options.recordOutputs !== undefined) settings.recordOutputs = options.recordOutputs;
  return settings;
}
