/** A request to the spool's writing thread. */
export type SpoolIoRequest = { id: number } & (
  | { op: 'create'; path: string; dir: string }
  | { op: 'write'; fd: number; parts: Uint8Array[]; position: number }
  | { op: 'truncate'; fd: number; length: number }
  | { op: 'close'; fd: number }
);

/** Its answer: the new file's descriptor for `create`; `{ ready: true }` once, when it is up. */
export type SpoolIoReply =
  | { ready: true }
  | { id: number; ok: true; fd: number | undefined }
  | { id: number; ok: false; message: string; code: string | undefined };
