declare module 'parse-prometheus-text-format' {
  /** prom2json-shaped families: {name, help, type, metrics: [{labels?, value} | {labels?, buckets, count, sum}]} */
  export default function parsePrometheusTextFormat(text: string): unknown[]
}
