/** The dashboard's health tiles. */
export const dashboardTraffic = {
  'dashboard.traffic.success': 'Success rate',
  'dashboard.traffic.failed': '{count} failed in this range',
  'dashboard.traffic.rpm': 'Requests / min',
  'dashboard.traffic.tpm': 'Tokens / min',
  'dashboard.traffic.lastMinute': 'Last 60 seconds',
} as const
