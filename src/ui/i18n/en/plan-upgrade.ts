/** A plan's upgrade group (new-api's `upgrade_group`): its field in the plan editor and its refusal. */
export const planUpgrade = {
  'plans.form.upgradeGroup': 'Upgrade group',
  'plans.form.upgradeGroupHint': "Holders are moved to this group while the plan lasts and moved back when it ends; one of GroupRatio's groups. Empty: the group is not changed.",
  'plans.error.unknown_group': 'This group is not in GroupRatio: add it there first.',
} as const
