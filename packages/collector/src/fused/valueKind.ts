/** What an attribute's value is: the oneof member that won, or a decoded object. */
export const ValueKind = {
  /** No member set. */
  empty: 0,
  /** Bytes [start, start + len) of the body. */
  string: 1,
  bool: 2,
  /** An int64 within ±2^53 in `num`, or beyond it in `obj` (a bigint). */
  int: 3,
  double: 4,
  /** Bytes, an array or a kvlist, decoded by protoAnyValue into `obj`. */
  object: 5,
} as const;
