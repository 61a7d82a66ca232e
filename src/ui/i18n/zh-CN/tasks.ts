import type { tasks as en } from '../en/tasks'

export const tasks: Record<keyof typeof en, string> = {
  'tasks.title': '任务',
  'tasks.lead': 'Suno 歌曲与歌词、视频：提交时扣费，失败时退还。',
  'tasks.mj.title': 'Midjourney',
  'tasks.mj.lead': 'Midjourney 绘图：提交时扣费，失败时退还。',
  'tasks.empty': '暂无任务：API 令牌提交任务后（Midjourney 经 /mj/submit/…，Suno 经 /suno/submit/…），任务及其状态和费用会显示在这里。',
  'tasks.column.time': '提交时间',
  'tasks.column.id': '任务 ID',
  'tasks.column.platform': '平台',
  'tasks.column.prompt': '提示词',
  'tasks.column.result': '结果',
  'tasks.column.action': '操作',
  'tasks.column.status': '状态',
  'tasks.column.quota': '费用',
  'tasks.column.failReason': '失败原因',
  'tasks.column.user': '用户 ID',
  'tasks.column.channel': '渠道 ID',
  'tasks.refunded': '已退还',
  'tasks.openImage': '查看图片',
}
