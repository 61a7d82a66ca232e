/** The dashboard's health tiles: from the log totals of the served requests and the count of failed ones. */
export interface TrafficFigures {
  /** share of requests that succeeded, 0…1; undefined when there were none */
  successRate: number | undefined
  failed: number
  rpm: number
  tpm: number
}

interface Stat {
  count: number
  rpm: number
  tpm: number
}

export function trafficFigures(served: Stat, failed: number): TrafficFigures {
  const total = served.count + failed
  return { successRate: total === 0 ? undefined : served.count / total, failed, rpm: served.rpm, tpm: served.tpm }
}
