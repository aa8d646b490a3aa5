import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, openSync, writevSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import type { SpoolIoReply, SpoolIoRequest } from './spoolIoProtocol.js';

/**
 * The spool's writing thread (SpoolIoThread): its writes and fsyncs are
 * synchronous calls here, never jobs of libuv's shared pool, where the
 * storage engine's queries hold threads for seconds.
 */
const port = parentPort;
// invariant: only SpoolIoThread starts this module, as a worker (a plain Error)
if (port === null) throw new Error('spoolIoWorker must run in a worker thread');

/** Vectors per writev call, under every platform's IOV_MAX. */
const MAX_VECTORS = 512;

function writeAll(fd: number, parts: readonly Uint8Array[], position: number): void {
  let queue = parts.filter((p) => p.byteLength > 0);
  while (queue.length > 0) {
    const vectors = queue.slice(0, MAX_VECTORS);
    const want = vectors.reduce((n, p) => n + p.byteLength, 0);
    const written = writevSync(fd, vectors, position);
    if (written === 0 && want > 0)
      throw Object.assign(new Error('no bytes written (device full?)'), { code: 'ENOSPC' });
    position += written;
    let skip = written;
    let i = 0;
    while (i < queue.length && skip >= queue[i]!.byteLength) skip -= queue[i++]!.byteLength;
    queue = queue.slice(i);
    if (skip > 0) queue[0] = queue[0]!.subarray(skip);
  }
}

function run(req: SpoolIoRequest): number | undefined {
  switch (req.op) {
    case 'create': {
      const fd = openSync(req.path, 'wx');
      const dir = openSync(req.dir, 'r');
      try {
        fsyncSync(dir); // the new file's directory entry
      } finally {
        closeSync(dir);
      }
      return fd;
    }
    case 'write':
      writeAll(req.fd, req.parts, req.position);
      fdatasyncSync(req.fd);
      return undefined;
    case 'truncate':
      ftruncateSync(req.fd, req.length);
      return undefined;
    case 'close':
      closeSync(req.fd);
      return undefined;
  }
}

port.on('message', (req: SpoolIoRequest) => {
  let reply: SpoolIoReply;
  try {
    reply = { id: req.id, ok: true, fd: run(req) };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    reply = { id: req.id, ok: false, message: e.message, code: e.code };
  }
  port.postMessage(reply);
});
port.postMessage({ ready: true });
