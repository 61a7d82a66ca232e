import type { channelHealth as en } from '../en/channel-health'

export const channelHealth: Record<keyof typeof en, string> = {
  'channels.action.testNamed': '测试 {name}',
  'channels.action.duplicate': '复制',
  'channels.copySuffix': '_复制',
  'channels.toast.duplicated': '已复制“{name}”',
  'channels.test.failedShort': '上次测试失败',
  'channels.test.failedAt': '{time} 的测试失败',
  'channels.models.none': '没有模型',
  'channels.models.moreShort': '等 {count} 个',
}
