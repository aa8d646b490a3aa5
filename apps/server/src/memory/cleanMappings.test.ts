import { readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cleanMappings } from './cleanMappings.js';

/** Four mappings of one library as a loader leaves them, then a heap: the shape of `/proc/<pid>/smaps`. */
const SMAPS = `7f00a0000000-7f00a9000000 r--p 00000000 fe:00 123 /opt/lib/libchdb.so
Size:             147456 kB
Rss:               60536 kB
Anonymous:             0 kB
VmFlags: rd mr mw me sd
7f00a9000000-7f00c1000000 r-xp 09000000 fe:00 123 /opt/lib/libchdb.so
Size:             393216 kB
Rss:              143092 kB
Anonymous:             0 kB
7f00c1000000-7f00c1c00000 r--p 21000000 fe:00 123 /opt/lib/libchdb.so
Size:              12288 kB
Rss:               12268 kB
Anonymous:         12264 kB
7f00c1c00000-7f00c1c57000 rw-p 21c00000 fe:00 123 /opt/lib/libchdb.so
Size:                348 kB
Rss:                 348 kB
Anonymous:           336 kB
7f00c2000000-7f00c3000000 r--p 00000000 fe:00 456 /opt/lib/libchdb.so.backup
Size:              16384 kB
Rss:                  16 kB
Anonymous:             0 kB
55d1c0000000-55d1cc000000 rw-p 00000000 00:00 0                          [heap]
Size:             196608 kB
Rss:              196608 kB
Anonymous:        196608 kB
`;

describe('cleanMappings', () => {
  it("finds the library's read-only mappings without written pages, and leaves out relocated data and writable ones", () => {
    expect(cleanMappings(SMAPS, /\/libchdb\.so$/)).toEqual([
      { start: 0x7f00a0000000n, end: 0x7f00a9000000n, residentBytes: 60536 * 1024 },
      { start: 0x7f00a9000000n, end: 0x7f00c1000000n, residentBytes: 143092 * 1024 },
    ]);
  });

  it('reads this process: its node binary has clean code pages in memory', () => {
    const binary = realpathSync(process.execPath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const found = cleanMappings(readFileSync('/proc/self/smaps', 'utf8'), new RegExp(`^${binary}$`));
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) expect(m.end).toBeGreaterThan(m.start);
    expect(found.reduce((sum, m) => sum + m.residentBytes, 0)).toBeGreaterThan(1024 * 1024);
  });
});
