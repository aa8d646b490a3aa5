import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { LineSpec } from '../prepare/prepareLatency';

export interface BandSpec {
  /** Row field holding `[low, high]`. */
  dataKey: string;
  label: string;
  color: string;
}

/**
 * Lines over a category axis (`xKey`), with optional interval bands, in the
 * units the rows already hold; `format` labels the y axis and tooltip.
 */
export function TimeLineChart({
  rows,
  lines,
  bands = [],
  format,
  height = 220,
  xKey = 'label',
  domain,
  reference,
  testId,
  numericX = false,
}: {
  rows: readonly object[];
  lines: readonly LineSpec[];
  bands?: readonly BandSpec[];
  format: (value: number) => string;
  height?: number;
  xKey?: string;
  domain?: [number | 'auto', number | 'auto'];
  reference?: { y: number; label: string };
  testId: string;
  /** A value axis for `xKey` (spacing by value, not by row) instead of a category per row. */
  numericX?: boolean;
}) {
  return (
    <div
      className="chart"
      data-testid={testId}
      data-points={rows.length}
      data-lines={JSON.stringify(lines.map((l) => l.label))}
    >
      <ResponsiveContainer width="100%" height={height}>
        <ComposedChart data={[...rows]} margin={{ top: 8, right: 16, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis
            dataKey={xKey}
            type={numericX ? 'number' : 'category'}
            domain={numericX ? ['dataMin', 'dataMax'] : undefined}
            allowDecimals={false}
            tick={{ fontSize: 11, fill: '#6b7280' }}
            tickLine={false}
            axisLine={{ stroke: '#e2e5ea' }}
            minTickGap={24}
          />
          <YAxis
            tick={{ fontSize: 11, fill: '#6b7280' }}
            tickLine={false}
            axisLine={false}
            width={56}
            tickFormatter={(v: number) => format(v)}
            domain={domain ?? ['auto', 'auto']}
          />
          <Tooltip
            isAnimationActive={false}
            formatter={(value: unknown, name) => {
              const text = Array.isArray(value)
                ? value.map((v) => format(Number(v))).join(' – ')
                : format(Number(value));
              return [text, name];
            }}
          />
          <Legend iconType="plainline" wrapperStyle={{ fontSize: 12 }} />
          {bands.map((b) => (
            <Area
              key={b.dataKey}
              dataKey={b.dataKey}
              name={b.label}
              stroke="none"
              fill={b.color}
              fillOpacity={0.14}
              isAnimationActive={false}
              connectNulls={false}
              legendType="none"
            />
          ))}
          {lines.map((l) => (
            <Line
              key={l.dataKey}
              dataKey={l.dataKey}
              name={l.label}
              stroke={l.color}
              strokeWidth={2}
              dot={rows.length < 30 ? { r: 2.5 } : false}
              isAnimationActive={false}
              connectNulls={false}
            />
          ))}
          {reference && (
            <ReferenceLine
              y={reference.y}
              stroke="#9ca3af"
              strokeDasharray="4 4"
              label={{ value: reference.label, fontSize: 11, fill: '#6b7280', position: 'insideTopRight' }}
            />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}
