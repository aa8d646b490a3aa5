/** A read-only private file mapping none of whose pages the process has written. */
export interface CleanMapping {
  start: bigint;
  end: bigint;
  /** Its pages in memory. */
  residentBytes: number;
}

const HEADER = /^([0-9a-f]+)-([0-9a-f]+) (\S{4}) \S+ \S+ \d+\s*(.*)$/;

/**
 * The mappings of `/proc/<pid>/smaps` text whose file matches `file`, that
 * are private and not writable (`r--p`, `r-xp`), and that hold no anonymous
 * page. Their resident pages are copies of the file: dropping them loses
 * nothing, since the next access reads the page again from the page cache.
 * A read-only mapping with anonymous pages (the relocated data a loader
 * writes and then write-protects) is left out: dropping those would lose the
 * writes.
 */
export function cleanMappings(smaps: string, file: RegExp): CleanMapping[] {
  const found: CleanMapping[] = [];
  let current: (CleanMapping & { anonymous: number | undefined }) | undefined;
  const close = (): void => {
    if (current !== undefined && current.anonymous === 0)
      found.push({ start: current.start, end: current.end, residentBytes: current.residentBytes });
    current = undefined;
  };
  for (const line of smaps.split('\n')) {
    const header = HEADER.exec(line);
    if (header !== null) {
      close();
      const [, start = '', end = '', perms = '', path = ''] = header;
      if ((perms === 'r--p' || perms === 'r-xp') && file.test(path))
        current = { start: BigInt(`0x${start}`), end: BigInt(`0x${end}`), residentBytes: 0, anonymous: undefined };
      continue;
    }
    if (current === undefined) continue;
    const field = /^(Rss|Anonymous):\s+(\d+) kB$/.exec(line);
    if (field === null) continue;
    const bytes = Number(field[2]) * 1024;
    if (field[1] === 'Rss') current.residentBytes = bytes;
    else current.anonymous = bytes;
  }
  close();
  return found;
}
