import type { nav as en } from '../en/nav'

export const nav: Record<keyof typeof en, string> = {
  'nav.label': '主导航',
  'nav.dashboard': '仪表盘',
  'nav.playground': '操练场',
  'nav.tokens': '令牌',
  'nav.logs': '日志',
  'nav.wallet': '钱包',
  'nav.profile': '个人设置',
  'nav.channels': '渠道',
  'nav.pricing': '定价',
  'nav.users': '用户',
  'nav.redemptions': '兑换码',
  'nav.settings': '系统设置',
  'nav.admin': '管理',
  'nav.userMenu': '账户',
  'nav.role.1': '普通用户',
  'nav.role.10': '管理员',
  'nav.role.100': '超级管理员',
}
