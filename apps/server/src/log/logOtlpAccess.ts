import type { ExportDone } from '@telltale/collector';
import type { Logger } from 'pino';

/**
 * The OTLP receivers' `onDone`: one debug line per export request (protocol,
 * status, spans, bytes, duration in ms, project). At info level and above it
 * returns at once: nothing is built on the ingest path.
 */
export function logOtlpAccess(logger: Logger): (done: ExportDone) => void {
  return (done) => {
    if (!logger.isLevelEnabled('debug')) return;
    const { protocol, status, projectId: project, spans, bytes } = done;
    logger.debug(
      { protocol, status, spans, bytes, durationMs: Math.round(done.durationMs * 10) / 10, project },
      'otlp request',
    );
  };
}
