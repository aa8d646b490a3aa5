/** A project id is a slug: lowercase letters, digits and hyphens, 1–64 characters, starting with a letter or digit. */
export const PROJECT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * The longest run id the API addresses (a path parameter) and the SDK sends;
 * the collector bounds longer ones from other senders to it.
 */
export const MAX_RUN_ID_LENGTH = 256;

/** The one project of open mode (no keys): every span and every API call is its. It has no row in `projects`. */
export const OPEN_MODE_PROJECT = 'default';

/** `ingest` keys may only send OTLP; `read` keys may only call the API. */
export const API_KEY_KINDS = ['ingest', 'read'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** The largest ingest quota a project may have, in spans per second. */
export const MAX_SPANS_PER_SECOND_LIMIT = 4_000_000_000;
