import type { Action } from '../../core/action.js'
import { defineAction } from '../../core/action.js'
import { obj, outline } from '../../model/schema.js'
import { THEMES } from '../../model/themes.js'

export const themeList = defineAction({
  id: 'theme.list',
  label: 'List themes',
  doc: 'The shipped themes: id (what deck.set /theme takes), the id stored in deck.json, name, appearances, fonts and palette tokens with their light and dark colours.',
  group: 'theme',
  milestone: 'M1',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: outline({ themes: 'id, storedId, name, appearances, fonts, palette' }),
  cli: 'theme list',
  mcp: 'deck_list_themes',
  example: {},
  run: () => ({ themes: THEMES }),
  human: (r: { themes: typeof THEMES }) => r.themes.map((t) => `${t.id}  ${t.name}  (stored as ${t.storedId}; ${t.appearances.join(', ')})`).join('\n'),
})

export default [themeList] as Action[]
