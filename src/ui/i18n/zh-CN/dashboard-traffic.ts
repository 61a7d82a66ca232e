import type { dashboardTraffic as en } from '../en/dashboard-traffic'

export const dashboardTraffic: Record<keyof typeof en, string> = {
  'dashboard.traffic.success': '成功率',
  'dashboard.traffic.failed': '此范围内失败 {count} 次',
  'dashboard.traffic.rpm': '每分钟请求数',
  'dashboard.traffic.tpm': '每分钟 Token 数',
  'dashboard.traffic.lastMinute': '最近 60 秒',
}
