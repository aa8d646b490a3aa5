/**
 * Deepest AnyValue nesting (arrays / kvlists inside attribute values) either
 * decoder accepts. A top-level attribute value is depth 1. Real telemetry
 * stays in single digits; the cap keeps hostile input from exhausting the stack.
 */
export const MAX_ANY_VALUE_DEPTH = 64;

/** Largest OTLP request body (HTTP) or message (gRPC) accepted after decompression, by default. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Deepest nesting of unknown protobuf groups (wire types 3/4) the skipper follows. */
export const MAX_GROUP_DEPTH = 64;
