import type { shell as en } from '../en/shell'

export const shell: Record<keyof typeof en, string> = {
  'shell.language.current': '语言：{name}',
  'shell.theme.current': '主题：{name}',
}
