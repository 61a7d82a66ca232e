/** The frame's compact menus (language, theme) and the phone's table cards. */
export const shell = {
  'shell.language.current': 'Language: {name}',
  'shell.theme.current': 'Theme: {name}',
} as const
