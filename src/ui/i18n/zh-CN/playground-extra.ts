import type { playgroundExtra as en } from '../en/playground-extra'

export const playgroundExtra: Record<keyof typeof en, string> = {
  'playground.image': '图片 {n}',
  'playground.copyAnswer': '复制回答',
  'playground.regenerate': '重新生成',
  'playground.attach': '添加图片',
  'playground.attachHint': '用于能读图的模型（视觉）：PNG、JPEG、WebP 或 GIF，最多 {count} 张，每张不超过 {mb} MB。',
  'playground.attach.tooBig': '{name} 超过 {mb} MB。',
  'playground.attach.tooMany': '最多 {count} 张图片。',
  'playground.removeImage': '移除图片 {n}',
  'playground.exchange': '请求与响应',
  'playground.exchange.request': '请求：POST /pg/chat/completions（由你的登录会话签发，不发送密钥）',
  'playground.exchange.response': '响应：HTTP {status}，{count} 个流事件',
  'playground.exchange.none': '发送一条消息后，这里显示实际发出的请求和收到的回答。',
}
