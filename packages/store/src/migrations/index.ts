import type { Migration } from './Migration.js';
import { m0001Spans } from './0001_spans.js';

/** All migrations in version order. Append only; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [m0001Spans];
