import { describe, expect, it } from 'vitest';
import { detectionJson, loopsReport } from '../testing/analyticsFixtures';
import { nanoseconds, unixNanos } from '../units';
import { prepareRunLoops, runLoopsWindow } from './prepareRunLoops';

describe('prepareRunLoops', () => {
  it('keeps the run’s detections and maps each evidence span to its kind (the first detection wins)', () => {
    const report = loopsReport([
      detectionJson('r1', 'repeated_action', { toolName: 'search', argsHash: 'h', spanIds: ['a', 'b', 'c'] }),
      detectionJson('r1', 'ping_pong', { cycle: ['search', 'fetch'], spanIds: ['c', 'd'] }),
      detectionJson('other', 'runaway', { spanIds: ['x'] }),
    ]);
    const loops = prepareRunLoops(report, 'r1');
    expect(loops.detections.map((d) => [d.kind, d.subject])).toEqual([
      ['repeated_action', 'search(h)'],
      ['ping_pong', 'search ⇄ fetch'],
    ]);
    expect([...loops.spanKinds]).toEqual([
      ['a', 'repeated action'],
      ['b', 'repeated action'],
      ['c', 'repeated action'],
      ['d', 'ping-pong'],
    ]);
    expect(loops.evidence).toEqual([
      { key: loops.detections[0]!.key, spanIds: ['a', 'b', 'c'] },
      { key: loops.detections[1]!.key, spanIds: ['c', 'd'] },
    ]);
  });

  it('is empty while loading', () => {
    expect(prepareRunLoops(undefined, 'r1')).toEqual({ detections: [], spanKinds: new Map(), evidence: [] });
  });

  it('asks from a day before the run to a minute after its end', () => {
    const start = unixNanos(1_700_000_000_000_000_000n);
    expect(runLoopsWindow(start, nanoseconds(2_500_000_000))).toEqual({
      from: 1_700_000_000_000 - 86_400_000,
      to: 1_700_000_000_000 + 2_500 + 60_000,
    });
  });
});
