import type { Action } from '../../core/action.js'
import { defineAction } from '../../core/action.js'
import { arr, num, obj, oneOf, str } from '../../model/schema.js'
import { result } from '../../model/results.js'
import { THEMES } from '../../model/themes.js'

export const themeList = defineAction({
  id: 'theme.list',
  label: 'List themes',
  doc: 'The shipped themes: id (what deck.set /theme takes), the id stored in deck.json, name, what it is for, appearances, fonts (heading and body families from font.list), palette tokens with their light and dark colours, and how its title slides are dressed.',
  group: 'theme',
  milestone: 'M1',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({}),
  output: result({
    themes: arr(
      obj({
        id: str({ description: 'What deck.set /theme takes.' }),
        storedId: str({ description: 'The id stored in deck.json.' }),
        name: str(),
        sentence: str({ description: 'What the theme is for.' }),
        appearances: arr(oneOf(['light', 'dark'])),
        fonts: obj({ heading: str({ description: 'Family of headings (font.list).' }), body: str({ description: 'Family of everything else.' }), scale: num({ exclusiveMinimum: 0, description: 'Type scale: every default text size times this (1 for Simple).' }), gap: num({ minimum: 0, description: 'Spacing: the gap between blocks stacked in a slot, px.' }) }),
        palette: { type: 'object', additionalProperties: obj({ light: str(), dark: str() }), description: 'Colours by palette token, light and dark: ink, paper, accent, muted, rule, highlight, chart1..chart6.' },
        cover: obj({ rule: oneOf(['top', 'left', 'none'], { description: 'The accent rule of title, section and closing slides.' }) }),
      }),
    ),
  }),
  cli: 'theme list',
  mcp: 'deck_list_themes',
  example: {},
  run: () => ({ themes: THEMES }),
  human: (r: { themes: typeof THEMES }) => r.themes.map((t) => `${t.id}  ${t.name}  (stored as ${t.storedId}; ${t.appearances.join(', ')})`).join('\n'),
})

export default [themeList] as Action[]
