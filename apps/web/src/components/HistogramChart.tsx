import { Bar, BarChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { HistogramView } from '../prepare/prepareHistogram';

const MARK_COLORS = ['#16a34a', '#d97706', '#dc2626', '#7c3aed'];

/** Runs per bucket on a value axis, with percentile marks as labelled vertical lines. */
export function HistogramChart({
  view,
  format,
  testId,
  height = 220,
}: {
  view: HistogramView;
  format: (plotted: number) => string;
  testId: string;
  height?: number;
}) {
  return (
    <div className="chart" data-testid={testId} data-buckets={view.bars.length}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={view.bars} margin={{ top: 22, right: 20, bottom: 0, left: 4 }} barCategoryGap={1}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis
            type="number"
            dataKey="x"
            domain={view.domain}
            tick={{ fontSize: 11, fill: '#6b7280' }}
            tickLine={false}
            tickFormatter={(v: number) => format(v)}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fontSize: 11, fill: '#6b7280' }}
            tickLine={false}
            axisLine={false}
            width={40}
          />
          <Tooltip
            isAnimationActive={false}
            cursor={{ fill: '#f3f4f6' }}
            labelFormatter={(_, payload) =>
              String((payload[0]?.payload as { range?: string } | undefined)?.range ?? '')
            }
            formatter={(v: unknown) => [String(v), 'runs']}
          />
          <Bar dataKey="runs" fill="#93c5fd" isAnimationActive={false} />
          {view.marks.map((m, i) => (
            <ReferenceLine
              key={m.key}
              x={m.x}
              stroke={MARK_COLORS[i % MARK_COLORS.length]}
              strokeWidth={2}
              strokeDasharray="4 3"
              label={{
                value: `${m.label} ${m.valueLabel}`,
                position: i % 2 === 0 ? 'top' : 'insideTopRight',
                fontSize: 11,
                fill: MARK_COLORS[i % MARK_COLORS.length],
              }}
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
      <ul hidden>
        {view.marks.map((m) => (
          <li key={m.key} data-testid={`${testId}-mark`} data-key={m.key} data-value={m.x}>
            {m.valueLabel}
          </li>
        ))}
        {view.bars.map((b) => (
          <li key={b.x} data-testid={`${testId}-bar`} data-value={b.runs}>
            {b.range}
          </li>
        ))}
      </ul>
    </div>
  );
}
