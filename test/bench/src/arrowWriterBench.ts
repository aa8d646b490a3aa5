/**
 * The hand-written Arrow span writer (encodeSpanRecordBatch) against
 * apache-arrow's builders on the same agent spans: µs per span on this
 * thread, stream bytes, and whether both streams read back to the same rows.
 * Run: `npm run bench:arrow-writers --prefix test/bench [-- spans batchSpans repeats]`.
 */
import { agentSpans } from './agentSpans.js';
import { compareArrowWriters } from './arrowWriterCompare.js';

const [spans = 51_200, batchSpans = 512, repeats = 5] = process.argv.slice(2).map(Number);
const c = compareArrowWriters(agentSpans(spans), batchSpans, repeats);
const int = (n: number): string => Math.round(n).toLocaleString('en-US');
console.log(
  [
    `${int(c.spans)} agent spans in record batches of ${int(c.batchSpans)}, best of ${c.repeats}:`,
    `  hand-written writer: ${c.handWritten.usPerSpan.toFixed(2)} µs/span, ${int(c.handWritten.streamBytes)} bytes (${(c.handWritten.streamBytes / c.spans).toFixed(0)} bytes/span)`,
    `  apache-arrow builders: ${c.library.usPerSpan.toFixed(2)} µs/span (builders alone ${c.library.buildersOnlyUsPerSpan.toFixed(2)}; the rest makes the row values and serialises), ${int(c.library.streamBytes)} bytes (${(c.library.streamBytes / c.spans).toFixed(0)} bytes/span)`,
    `  library / hand-written: ${(c.library.usPerSpan / c.handWritten.usPerSpan).toFixed(2)}× the time, ${(c.library.streamBytes / c.handWritten.streamBytes).toFixed(3)}× the bytes`,
    `  same rows read back: ${c.sameRows ? 'yes' : `NO — ${c.firstDifference}`}`,
  ].join('\n'),
);
if (!c.sameRows) process.exitCode = 1;
