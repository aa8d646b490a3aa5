import { Bar, BarChart, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { OutcomeBar } from '../prepare/prepareOutcomeChart';

/** Runs per outcome for the runs on screen. */
export function OutcomeChart({ bars, height = 150 }: { bars: readonly OutcomeBar[]; height?: number }) {
  return (
    <div className="chart" data-testid="outcome-chart">
      <ResponsiveContainer width="100%" height={height}>
        <BarChart
          data={[...bars]}
          layout="vertical"
          margin={{ top: 4, right: 36, bottom: 4, left: 8 }}
          barCategoryGap={5}
        >
          <XAxis type="number" hide allowDecimals={false} domain={[0, (max: number) => Math.max(1, max)]} />
          <YAxis
            type="category"
            dataKey="label"
            width={80}
            interval={0}
            tick={{ fontSize: 12, fill: '#374151' }}
            axisLine={false}
            tickLine={false}
          />
          <Tooltip cursor={{ fill: '#f3f4f6' }} formatter={(value) => [value, 'runs']} isAnimationActive={false} />
          <Bar dataKey="count" radius={[0, 3, 3, 0]} minPointSize={2} isAnimationActive={false}>
            {bars.map((bar) => (
              <Cell key={bar.outcome} fill={bar.color} />
            ))}
            <LabelList dataKey="count" position="right" style={{ fontSize: 12, fill: '#374151' }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
