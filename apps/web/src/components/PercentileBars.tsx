import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

export interface PercentileBar {
  key: string;
  label: string;
  /** The plotted value, already in the chart's unit. */
  value: number;
  valueLabel: string;
  /** Marked levels (P50, P95, P99) are drawn strong. */
  marked: boolean;
}

/** A distribution as its percentiles, left to right, each labelled with its value. */
export function PercentileBars({ bars, testId, height = 200, format }: { bars: readonly PercentileBar[]; testId: string; height?: number; format: (v: number) => string }) {
  return (
    <div className="chart" data-testid={testId}>
      <ResponsiveContainer width="100%" height={height}>
        <BarChart data={[...bars]} margin={{ top: 20, right: 12, bottom: 0, left: 4 }}>
          <CartesianGrid stroke="#eef0f3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#374151' }} tickLine={false} axisLine={{ stroke: '#e2e5ea' }} />
          <YAxis tick={{ fontSize: 11, fill: '#6b7280' }} tickLine={false} axisLine={false} width={56} tickFormatter={(v: number) => format(v)} />
          <Tooltip isAnimationActive={false} formatter={(v: unknown) => [format(Number(v)), 'value']} cursor={{ fill: '#f3f4f6' }} />
          <Bar dataKey="value" isAnimationActive={false} radius={[3, 3, 0, 0]}>
            {bars.map((b) => (
              <Cell key={b.key} fill={b.marked ? '#2563eb' : '#bfdbfe'} />
            ))}
            <LabelList dataKey="valueLabel" position="top" style={{ fontSize: 11, fill: '#374151' }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
      <ul className="sr-values" hidden>
        {bars.map((b) => (
          <li key={b.key} data-testid={`${testId}-value`} data-key={b.key} data-value={b.value}>
            {b.valueLabel}
          </li>
        ))}
      </ul>
    </div>
  );
}
