/*
 * HTTP statuses by exception name, as ClickHouse's HTTP handler chooses them
 * (src/Server/HTTP/exceptionCodeToHTTPStatus.cpp); everything else is 500.
 */
const BY_STATUS: ReadonlyArray<readonly [number, readonly string[]]> = [
  [401, ['REQUIRED_PASSWORD']],
  [403, ['UNKNOWN_USER', 'WRONG_PASSWORD', 'AUTHENTICATION_FAILED', 'SET_NON_GRANTED_ROLE', 'ACCESS_DENIED']],
  [
    400,
    [
      'BAD_ARGUMENTS',
      'CANNOT_COMPILE_REGEXP',
      'CANNOT_PARSE_TEXT',
      'CANNOT_PARSE_ESCAPE_SEQUENCE',
      'CANNOT_PARSE_QUOTED_STRING',
      'CANNOT_PARSE_DATE',
      'CANNOT_PARSE_DATETIME',
      'CANNOT_PARSE_NUMBER',
      'CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING',
      'CANNOT_PARSE_IPV4',
      'CANNOT_PARSE_IPV6',
      'CANNOT_PARSE_INPUT_ASSERTION_FAILED',
      'CANNOT_PARSE_UUID',
      'DUPLICATE_COLUMN',
      'ILLEGAL_COLUMN',
      'UNKNOWN_ELEMENT_IN_AST',
      'UNKNOWN_TYPE_OF_AST_NODE',
      'THERE_IS_NO_COLUMN',
      'TOO_DEEP_AST',
      'TOO_BIG_AST',
      'UNEXPECTED_AST_STRUCTURE',
      'SYNTAX_ERROR',
      'INCORRECT_DATA',
      'TYPE_MISMATCH',
      'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE',
    ],
  ],
  [
    404,
    [
      'UNKNOWN_TABLE',
      'UNKNOWN_FUNCTION',
      'UNKNOWN_IDENTIFIER',
      'UNKNOWN_TYPE',
      'UNKNOWN_STORAGE',
      'UNKNOWN_DATABASE',
      'UNKNOWN_SETTING',
      'UNKNOWN_DIRECTION_OF_SORTING',
      'UNKNOWN_AGGREGATE_FUNCTION',
      'UNKNOWN_FORMAT',
      'UNKNOWN_DATABASE_ENGINE',
      'UNKNOWN_TYPE_OF_QUERY',
      'UNKNOWN_ROLE',
    ],
  ],
  [413, ['QUERY_IS_TOO_LARGE']],
  [501, ['NOT_IMPLEMENTED']],
  [503, ['SOCKET_TIMEOUT', 'CANNOT_OPEN_FILE', 'CANNOT_SCHEDULE_TASK']],
  [411, ['HTTP_LENGTH_REQUIRED']],
  [408, ['TIMEOUT_EXCEEDED']],
  [415, ['UNSUPPORTED_MEDIA_TYPE']],
];

const STATUS = new Map<string, number>(
  BY_STATUS.flatMap(([status, names]) => names.map((name) => [name, status] as const)),
);

/** The HTTP status ClickHouse answers an exception of this name with. */
export function httpStatusFor(type: string): number {
  return STATUS.get(type) ?? 500;
}
