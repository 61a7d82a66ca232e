import type { site as en } from '../en/site'

export const site: Record<keyof typeof en, string> = {
  'site.nav': '站点',
  'site.models': '模型广场',
  'site.about': '关于',
  'site.about.empty': '运营者还没有填写“关于”页面。',
  'site.signIn': '登录',
  'site.console': '控制台',
  'site.notice': '公告',
  'site.home.lead': '一个 API 接入众多模型厂商：密钥、额度、价格和日志集中管理。',
  'site.openPage': '在新标签页中打开此页面',
  'site.legal': '法律条款',
  'site.legal.empty': '此页面尚未填写。',
  'site.userAgreement': '用户协议',
  'site.privacyPolicy': '隐私政策',
  'site.dismiss': '关闭',
}
