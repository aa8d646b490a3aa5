import { trace } from '@opentelemetry/api';
import type { AttributeValue, Tracer, TracerProvider } from '@opentelemetry/api';
import type { ContentOptions } from '../internal/contentCapture.js';
import { SDK_NAME, SDK_VERSION } from '../internal/version.js';
import { CapturingTracer } from './CapturingTracer.js';

export interface TelltaleTelemetryOptions extends ContentOptions {
  /** Where the AI SDK's spans go (default: the global provider, set up by `init`). */
  tracerProvider?: TracerProvider;
  /** `ai.telemetry.functionId`: names the call site (e.g. `support-agent`). */
  functionId?: string;
  /** `ai.telemetry.metadata.*`; `sessionId` groups runs into a session. */
  metadata?: Record<string, AttributeValue>;
  /**
   * Let the AI SDK record prompts and tool arguments (default true). What
   * of them leaves the process is `capture`'s to say; tool arguments are
   * hashed for repeated-action detection whatever it is.
   */
  recordInputs?: boolean;
  /** Let the AI SDK record model outputs (default true; kept as `capture` says). */
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
 *
 * Their content (prompts, messages, tool arguments and results, answers)
 * is captured as the step wrappers' is: `capture` and `redact` here, else
 * those given to `init`; by default none is kept.
 */
export function telltaleTelemetry(options: TelltaleTelemetryOptions = {}): AiSdkTelemetrySettings {
  const provider = options.tracerProvider ?? trace.getTracerProvider();
  const settings: AiSdkTelemetrySettings = {
    isEnabled: true,
    tracer: new CapturingTracer(provider.getTracer(`${SDK_NAME}/ai`, SDK_VERSION), {
      ...(options.capture === undefined ? {} : { capture: options.capture }),
      ...(options.redact === undefined ? {} : { redact: options.redact }),
    }),
  };
  if (options.functionId !== undefined) settings.functionId = options.functionId;
  if (options.metadata !== undefined) settings.metadata = options.metadata;
  if (options.recordInputs !== undefined) settings.recordInputs = options.recordInputs;
  if (options.recordOutputs !== undefined) settings.recordOutputs = options.recordOutputs;
  return settings;
}
