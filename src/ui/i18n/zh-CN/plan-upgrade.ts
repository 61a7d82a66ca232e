import type { planUpgrade as en } from '../en/plan-upgrade'

export const planUpgrade: Record<keyof typeof en, string> = {
  'plans.form.upgradeGroup': '升级分组',
  'plans.form.upgradeGroupHint': '套餐有效期间用户被移入此分组，结束后恢复原分组；须为分组倍率（GroupRatio）中的分组。留空则不改变分组。',
  'plans.error.unknown_group': '该分组不在分组倍率（GroupRatio）中：请先在那里添加。',
}
