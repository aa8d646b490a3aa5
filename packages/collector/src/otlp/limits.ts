/**
 * Deepest AnyValue nesting (arrays / kvlists inside attribute values) either
 * decoder accepts. A top-level attribute value is depth 1. Real telemetry
 * stays in single digits; the cap keeps hostile input from exhausting the stack.
 */
export const MAX_ANY_VALUE_DEPTH = 64;

/** Deepest nesting of unknown protobuf groups (wire types 3/4) the skipper follows. */
export const MAX_GROUP_DEPTH = 64;
