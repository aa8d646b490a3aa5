import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORD_HEADER_BYTES, UNVERSIONED_RECORD_MAGIC } from './recordFormat.js';
import { segmentPath } from './segmentFiles.js';
import { Spool, type SpoolBatch } from './Spool.js';
import { SpoolDrainer } from './SpoolDrainer.js';
import type { SpoolVersionError } from './SpoolVersionError.js';

const opened: Spool[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close();
});

async function openSpool(dir: string, version?: number): Promise<Spool> {
  const spool = await Spool.open({ dir, ...(version === undefined ? {} : { version }) });
  opened.push(spool);
  return spool;
}

async function close(spool: Spool): Promise<void> {
  opened.splice(opened.indexOf(spool), 1);
  await spool.close();
}

async function texts(batch: SpoolBatch): Promise<string[]> {
  const out: string[] = [];
  for await (const p of batch.payloads()) out.push(p.toString('utf8'));
  return out;
}

/** A record as builds before versioned records wrote it: "TTS1", 16-byte header, no version. */
function unversionedRecord(payload: string, weight: number): Buffer {
  const body = Buffer.from(payload);
  const header = Buffer.alloc(16);
  header.writeUInt32LE(UNVERSIONED_RECORD_MAGIC, 0);
  header.writeUInt32LE(body.length, 4);
  header.writeUInt32LE(crc32(body), 8);
  header.writeUInt32LE(weight, 12);
  return Buffer.concat([header, body]);
}

describe('versioned spool records', () => {
  it('writes the version into each record header and reads it back, batch by batch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spoolv-'));
    const spool = await openSpool(dir, 3);
    await spool.append([Buffer.from('a'), Buffer.from('b')], 2);
    await spool.append([Buffer.from('cd')], 5);
    await close(spool);
    const bytes = await readFile(segmentPath(dir, 1));
    expect(bytes.toString('latin1', 0, 4)).toBe('TTS2');
    expect(bytes.readUInt32LE(16)).toBe(3);
    expect(bytes.length).toBe(2 * RECORD_HEADER_BYTES + 4);

    const again = await openSpool(dir, 3);
    expect(again.recovery.versions).toEqual([{ version: 3, records: 2, weight: 7 }]);
    const batch = (await again.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect({ version: batch.version, records: batch.records, payloads: await texts(batch) }).toEqual({
      version: 3,
      records: 2,
      payloads: ['ab', 'cd'],
    });
  });

  it('reads records written before versions as version 1, from an old checkpoint, and drains them before new ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spoolv-'));
    const first = unversionedRecord('old-0', 4);
    await writeFile(
      segmentPath(dir, 7),
      Buffer.concat([first, unversionedRecord('old-1', 5), unversionedRecord('old-2', 6)]),
    );
    // the checkpoint an older build wrote: the first record stored, a batch of the second in flight
    const second = first.length + unversionedRecord('old-1', 5).length;
    await writeFile(join(dir, 'drain.json'), JSON.stringify({ seq: 7, offset: first.length, pendingTo: second }));

    const spool = await openSpool(dir, 1);
    expect(spool.recovery).toMatchObject({
      records: 2,
      weight: 11,
      tornBytes: 0,
      versions: [{ version: 1, records: 2, weight: 11 }],
    });
    await spool.append([Buffer.from('new-0')], 1);
    const replay = (await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    // the batch in flight comes back whole, with its old token
    expect({
      token: replay.token.split('-').slice(1).join('-'),
      version: replay.version,
      payloads: await texts(replay),
    }).toEqual({
      token: `7-${first.length}-${second}`,
      version: 1,
      payloads: ['old-1'],
    });
    await spool.ack(replay);
    const rest: string[] = [];
    for (
      let b = await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 });
      b !== undefined;
      b = await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 })
    ) {
      expect(b.version).toBe(1);
      rest.push(...(await texts(b)));
      await spool.ack(b);
    }
    expect(rest).toEqual(['old-2', 'new-0']);
  });

  it('never mixes versions in a batch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'spoolv-'));
    await writeFile(segmentPath(dir, 1), unversionedRecord('v1', 1));
    const spool = await openSpool(dir, 2);
    await spool.append([Buffer.from('v2')], 1);
    const a = (await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect({ version: a.version, payloads: await texts(a) }).toEqual({ version: 1, payloads: ['v1'] });
    await spool.ack(a);
    const b = (await spool.nextBatch({ maxWeight: 100, maxBytes: 1 << 20 }))!;
    expect({ version: b.version, payloads: await texts(b) }).toEqual({ version: 2, payloads: ['v2'] });
  });
});

describe('SpoolDrainer and record versions', () => {
  /** A spool holding two version-9 records, reopened by a build of version 1 that then appends one of its own. */
  async function foreignSpool(): Promise<{ dir: string; spool: Spool }> {
    const dir = await mkdtemp(join(tmpdir(), 'spoolv-'));
    const older = await openSpool(dir, 9);
    await older.append([Buffer.from('v9-a')], 3);
    await older.append([Buffer.from('v9-b')], 4);
    await close(older);
    const spool = await openSpool(dir, 1);
    await spool.append([Buffer.from('v1-a')], 5);
    return { dir, spool };
  }

  it('refuses records of a version it cannot convert: nothing stored, all kept on disk, a message naming versions, directory and files', async () => {
    const { dir, spool } = await foreignSpool();
    expect(spool.recovery.versions).toEqual([{ version: 9, records: 2, weight: 7 }]);
    const stored: string[] = [];
    let refused: SpoolVersionError | undefined;
    const drainer = new SpoolDrainer({
      spool,
      lingerMs: 1,
      store: async (payloads) => {
        for await (const p of payloads) stored.push(p.toString('utf8'));
      },
      onRefused: (err) => (refused = err),
    });
    drainer.start();
    const deadline = Date.now() + 10_000;
    while (refused === undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    await drainer.stop();

    expect(refused).toBeDefined();
    expect(refused!.message).toContain('spans schema version 9');
    expect(refused!.message).toContain('stores version 1');
    expect(refused!.message).toContain(dir);
    expect(refused!.message).toContain(segmentPath(dir, 1));
    expect(refused!.message).toContain('move');
    expect({ found: refused!.found, expected: refused!.expected, files: refused!.files }).toEqual({
      found: 9,
      expected: 1,
      files: [segmentPath(dir, 1)],
    });
    expect(drainer.refusal).toBe(refused);
    expect(stored).toEqual([]);
    expect({ records: spool.pendingRecords, weight: spool.pendingWeight }).toEqual({ records: 3, weight: 12 });
    // waiters give up at once instead of waiting for a drain that will not come
    await expect(drainer.drained(10_000)).rejects.toBe(refused);
    expect(await drainer.caughtUp(10_000)).toBe(false);
    // still on disk, whole: a reopen finds every record
    await close(spool);
    expect((await readdir(dir)).filter((f) => f.startsWith('seg-')).sort()).toEqual([
      'seg-000000000001.log',
      'seg-000000000002.log',
    ]);
    const again = await openSpool(dir, 1);
    expect(again.recovery.versions).toEqual([
      { version: 1, records: 1, weight: 5 },
      { version: 9, records: 2, weight: 7 },
    ]);
  });

  it('converts records of a version it has a converter for, then stores its own', async () => {
    const { spool } = await foreignSpool();
    const stored: string[] = [];
    const drainer = new SpoolDrainer({
      spool,
      lingerMs: 1,
      converters: new Map([[9, (p: Buffer) => Buffer.from(`${p.toString('utf8')}->v1`)]]),
      store: async (payloads) => {
        for await (const p of payloads) stored.push(p.toString('utf8'));
      },
      onRefused: (err) => {
        throw err;
      },
    });
    drainer.start();
    await drainer.drained(10_000);
    await drainer.stop();
    expect(stored).toEqual(['v9-a->v1', 'v9-b->v1', 'v1-a']);
    expect(drainer.refusal).toBeUndefined();
  });
});
