export const channelStats = {
  'channelStats.title': '渠道：延迟与错误',
  'channelStats.caption': '本时段内每个渠道的请求数、错误数及成功请求的延迟（最多统计最近 31 天）',
  'channelStats.channel': '渠道',
  'channelStats.requests': '请求数',
  'channelStats.errors': '错误数',
  'channelStats.errorRate': '错误率',
  'channelStats.p50': 'p50 延迟',
  'channelStats.p95': 'p95 延迟',
  'channelStats.ms': '{ms} 毫秒',
  'channelStats.empty': '本时段内没有渠道处理过请求。',
} as const
