import type { QueryListener } from '@telltale/store';
import type { Logger } from 'pino';

/** Logs each store repository operation at debug level: its name, duration and rows (nothing is built when debug is off). */
export function logStoreQuery(logger: Logger): QueryListener {
  return ({ operation, durationMs, rowsRead, rowsReturned, error }) => {
    if (!logger.isLevelEnabled('debug')) return;
    logger.debug(
      {
        operation,
        durationMs: Math.round(durationMs * 10) / 10,
        rowsRead,
        rowsReturned,
        ...(error === undefined ? {} : { err: error }),
      },
      'store query',
    );
  };
}
