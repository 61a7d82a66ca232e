import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { createLogSink } from '../../src/telemetry/logger'

/** A logger whose JSON lines land in `lines`, parsed. */
export function captureLog(level: 'info' | 'debug' = 'info') {
  const raw: string[] = []
  const sink = createLogSink({ logFormat: 'json', logLevel: level }, { write: (line: string) => void raw.push(line) })
  return {
    logger: sink.logger,
    raw,
    /** every line parsed as JSON (throws on one that is not) */
    lines: () => raw.flatMap((chunk) => chunk.split('\n').filter(Boolean)).map((line) => JSON.parse(line) as Record<string, any>),
  }
}

export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

/**
 * An exposition parsed by parse-prometheus-text-format (the npm port of Prometheus' Python client parser): once
 * as it is (every line must parse; families, HELP and TYPE), and once with the histogram TYPE lines left out, so
 * each `_bucket`, `_sum` and `_count` line comes back as a sample with all its labels (the package folds only
 * unlabelled histograms into buckets).
 */
export function parseExposition(text: string): { families: any[]; samples: Sample[] } {
  const families = parsePrometheusTextFormat(text) as any[]
  const flat = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, '# TYPE $1 untyped')) as any[]
  const samples: Sample[] = []
  for (const family of flat) for (const metric of family.metrics) samples.push({ name: family.name, labels: metric.labels ?? {}, value: Number(metric.value) })
  return { families, samples }
}

/** Prometheus' own parser and linter (`promtool check metrics`), when the Debian package is installed: its complaints, '' when none. */
export function promtoolCheck(text: string): string | undefined {
  const promtool = Bun.which('promtool')
  if (!promtool) return undefined
  const run = Bun.spawnSync([promtool, 'check', 'metrics'], { stdin: new TextEncoder().encode(text), stdout: 'pipe', stderr: 'pipe' })
  return `${run.stdout.toString()}${run.stderr.toString()}`.trim() + (run.exitCode === 0 ? '' : `\n(exit ${run.exitCode})`)
}

export function sampleOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
}
