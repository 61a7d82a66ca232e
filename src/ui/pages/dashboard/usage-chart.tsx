import { useEffect, useRef } from 'preact/hooks'
import uPlot from 'uplot'
import type { Granularity } from '../../lib/usage-series'
import { stackSeries } from '../../lib/usage-series'
import { useChartTheme, withAlpha, type ChartTheme } from './chart-theme'

const HEIGHT = 220
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif'

export interface ChartSeries {
  label: string
  values: number[]
  /** over the whole range: what the legend shows when the pointer is not on the chart */
  total: number
  /** the neutral colour ("other models") instead of the next chart colour */
  neutral?: boolean
}

export interface UsageChartProps {
  /** bucket starts, unix seconds */
  x: number[]
  series: ChartSeries[]
  stacked: boolean
  unit: Granularity
  locale: string
  /** the legend's name for the time column and its text when the pointer is off the chart */
  timeLabel: string
  totalLabel: string
  /** exact values, for the legend */
  format(value: number): string
  /** short values, for the y axis */
  tick(value: number): string
}

/**
 * uPlot, themed: thin lines (filled when stacked), the legend shows exact values under the pointer and each
 * model's total otherwise, axis labels through Intl, and the width follows the container. uPlot sizes its
 * elements through the CSSOM, which the CSP allows (no style attributes or <style> tags).
 */
export function UsageChart(props: UsageChartProps) {
  const ref = useRef<HTMLDivElement>(null)
  const theme = useChartTheme()
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const plot = new uPlot(chartOptions(props, theme, Math.max(200, el.clientWidth)), chartData(props), el)
    let width = el.clientWidth
    const observer = new ResizeObserver(() => {
      const next = el.clientWidth
      if (next === width || next === 0) return
      width = next
      plot.setSize({ width: Math.max(200, next), height: HEIGHT })
    })
    observer.observe(el)
    return () => {
      observer.disconnect()
      plot.destroy()
    }
  }, [props.x, props.series, props.stacked, props.unit, props.locale, props.timeLabel, theme])
  return <div class="usage-chart" ref={ref} />
}

function chartData({ x, series, stacked }: UsageChartProps): uPlot.AlignedData {
  const values = series.map((s) => s.values)
  return [x, ...(stacked ? stackSeries(values) : values)]
}

function chartOptions(props: UsageChartProps, theme: ChartTheme, width: number): uPlot.Options {
  const { series, stacked, unit, locale, format, tick } = props
  const hours = new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' })
  const days = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric' })
  const pointAt = new Intl.DateTimeFormat(locale, unit === 'hour' ? { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' } : { weekday: 'short', month: 'short', day: 'numeric' })
  const midnight = (seconds: number) => {
    const date = new Date(seconds * 1000)
    return date.getHours() === 0 && date.getMinutes() === 0
  }
  // daily buckets read as bars (stacked, or one model alone); hours, and models side by side, as lines
  const bars = unit === 'day' && (stacked || series.length === 1)
  let palette = 0
  const colours = series.map((s) => (s.neutral ? theme.muted : theme.series[palette++ % theme.series.length]!))
  const axis = {
    stroke: theme.muted,
    font: FONT,
    grid: { stroke: theme.border, width: 1 },
    ticks: { stroke: theme.border, width: 1, size: 4 },
  }
  return {
    width,
    height: HEIGHT,
    // room on the right for half of the last time label
    padding: [10, 36, 0, 0],
    cursor: { drag: { x: false, y: false, setScale: false }, points: { size: 6 } },
    legend: { live: true },
    scales: {
      // bars need half a bucket of room at each end
      x: { time: true, range: bars ? (_u, min, max) => [min - 43_200, max + 43_200] : undefined },
      y: { range: (_u, _min, max) => [0, max > 0 ? uPlot.rangeNum(0, max, 0.1, true)[1] : 1] },
    },
    series: [
      { label: props.timeLabel, value: (_u, value, _s, idx) => (idx === null || value === null ? props.totalLabel : pointAt.format(new Date(value * 1000))) },
      ...series.map((s, i) => ({
        label: s.label,
        stroke: colours[i],
        width: bars ? 1 : 1.5,
        fill: bars ? withAlpha(colours[i]!, 0.6) : stacked ? withAlpha(colours[i]!, 0.28) : undefined,
        paths: bars ? BARS : undefined,
        points: { show: !bars, size: 5 },
        value: (_u: uPlot, _value: number | null, _s: number, idx: number | null) => format(idx === null ? s.total : s.values[idx] ?? 0),
      })),
    ],
    bands: stacked ? series.slice(1).map((_, i) => ({ series: [i + 2, i + 1] as [number, number] })) : [],
    axes: [
      {
        ...axis,
        space: 60,
        // days: ticks on the buckets themselves (local midnights), as many as fit; hours: uPlot's own local splits
        splits: unit === 'day' ? (u) => daySplits(props.x, u.bbox.width / devicePixelRatio) : undefined,
        values: (_u, splits, _axis, _space, incr) =>
          splits.map((s) => (incr >= 86_400 || midnight(s) ? days.format(new Date(s * 1000)) : hours.format(new Date(s * 1000)))),
      },
      {
        ...axis,
        space: 36,
        values: (_u, splits) => splits.map(tick),
        size: (self, values, axisIdx, cycle) => {
          const own = self.axes[axisIdx]!
          if (cycle > 1) return (own as { _size?: number })._size ?? 50
          const longest = (values ?? []).reduce((a, b) => (b.length > a.length ? b : a), '')
          self.ctx.font = FONT
          return Math.ceil(12 + (longest ? self.ctx.measureText(longest).width : 0))
        },
      },
    ],
  }
}

/** Bars centred on their bucket, at most 48 px wide, 30 % of a bucket between them. */
const BARS = uPlot.paths.bars!({ size: [0.7, 48], align: 0 })

/** Every k-th bucket, k chosen so ticks stay about 70 px apart. */
function daySplits(x: readonly number[], plotWidth: number): number[] {
  const fit = Math.max(1, Math.floor(plotWidth / 70))
  const every = Math.max(1, Math.ceil(x.length / fit))
  return x.filter((_, i) => i % every === 0)
}
