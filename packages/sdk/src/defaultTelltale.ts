import { createTelltale } from './createTelltale.js';
import type { Telltale } from './createTelltale.js';

/** The wrappers over the global tracer provider (set up by `init`, or by your own OTel setup). */
export const defaultTelltale: Telltale = createTelltale();

export const { run, plan, act, validate, tool, llm, step, retry } = defaultTelltale;
