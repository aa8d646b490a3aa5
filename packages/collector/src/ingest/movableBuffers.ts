/**
 * The buffers a message to another thread may move rather than copy: those
 * the views cover whole, each once. A view on part of a buffer (a slice of
 * Node's shared pool of small Buffers, which Node refuses to move: Node 20
 * copies it, later versions throw) stays out, so it is copied with the
 * message.
 */
export function movableBuffers(views: Iterable<ArrayBufferView>): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of views) {
    const b = v.buffer;
    if (b instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === b.byteLength && b.byteLength > 0)
      if (!out.includes(b)) out.push(b);
  }
  return out;
}
