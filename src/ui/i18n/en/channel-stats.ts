export const channelStats = {
  'channelStats.title': 'Channels: latency and errors',
  'channelStats.caption': 'Requests, errors and latency of the successful requests per channel in this period (at most its last 31 days)',
  'channelStats.channel': 'Channel',
  'channelStats.requests': 'Requests',
  'channelStats.errors': 'Errors',
  'channelStats.errorRate': 'Error rate',
  'channelStats.p50': 'p50 latency',
  'channelStats.p95': 'p95 latency',
  'channelStats.ms': '{ms} ms',
  'channelStats.empty': 'No channel served a request in this period.',
} as const
