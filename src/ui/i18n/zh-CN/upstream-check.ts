export const upstreamCheck = {
  'upstreamCheck.enabled': '每 30 分钟检测上游模型列表',
  'upstreamCheck.enabledHint': '检测结果在“上游模型”中等待审核。',
  'upstreamCheck.autoSync': '自动添加上游新模型',
  'upstreamCheck.autoSyncHint': '定时检测会自动添加新模型；上游下线的模型不会被自动删除。',
  'upstreamCheck.pending': '{count} 项模型变更',
  'upstreamCheck.pendingTitle': '上游检测：新增 {added} 个，下线 {removed} 个',
  'upstreamCheck.lastCheck': '上次检测 {time}',
  'upstreamCheck.checkAgain': '重新检测',
  'upstreamCheck.ignore': '忽略勾选的新增模型',
} as const
