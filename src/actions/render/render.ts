import { defineAction } from '../../core/action.js'
import { arr, bool, Box, int, obj, oneOf, opt, SlideId, SlideIdsOrAll, str, Themes } from '../../model/schema.js'
import { planned, result } from '../../model/results.js'

const slideIds = { ...SlideIdsOrAll, description: "'all' or a list of slide ids." }
const themes = { ...Themes, description: 'Themes to render: light, dark or both.' }

export const renderSlide = defineAction({
  id: 'render.slide',
  label: 'Render slides',
  doc: 'Renders slides to image files, per theme, at scale 1 or 2, as PNG or JPG; the result lists render records with image paths.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    slideIds,
    themes: opt(themes),
    scale: opt(oneOf([1, 2], { description: 'Pixels per sheet pixel.' })),
    format: opt(oneOf(['png', 'jpg'], { description: 'Image format.' })),
    out: opt(str({ default: '.studio/render', description: 'Output directory; .studio/render when absent.' })),
  }),
  output: planned(
    result({
      renders: arr(
        obj({ slideId: SlideId, theme: oneOf(['light', 'dark']), file: str({ description: 'The image path.' }), width: int({ minimum: 1 }), height: int({ minimum: 1 }), revision: int({ minimum: 0 }) }),
        { description: 'Render records.' },
      ),
    }),
  ),
  cli: 'render <slideIds> --theme <themes> --out <out> --json',
  mcp: 'deck_render',
  example: { slideIds: ['title-1'], themes: ['light'], scale: 1, format: 'png' },
})

export const renderSheet = defineAction({
  id: 'render.sheet',
  label: 'Render contact sheet',
  doc: 'Renders a contact sheet of slides per theme, with a JSON cell map from cell boxes to slide ids; optional numbers and a lint or plate overlay.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  transports: 'CMHP',
  input: obj({
    slideIds,
    themes: opt(themes),
    cols: opt(int({ minimum: 1, maximum: 20, description: 'Columns of the sheet.' })),
    thumb: opt(int({ minimum: 64, maximum: 1600, description: 'Thumbnail width in px.' })),
    numbered: opt(bool({ description: 'Print slide numbers on the cells.' })),
    overlay: opt(oneOf(['lint', 'plate'], { description: 'Overlay lint findings or plate boxes on the cells.' })),
    out: opt(str({ description: 'Output directory; .studio/render when absent.' })),
  }),
  output: planned(
    result({
      sheets: arr(
        obj({ theme: oneOf(['light', 'dark']), file: str({ description: 'The image path.' }), cells: arr(obj({ box: Box, slideId: SlideId })) }),
        { description: 'One per theme: image path and cell map (cell box → slide id).' },
      ),
    }),
  ),
  cli: 'sheet <slideIds> --cols <cols> --thumb <thumb> --overlay <overlay>',
  mcp: 'deck_sheet',
  example: { slideIds: 'all', cols: 4, thumb: 320, numbered: true },
})

export const fontList = defineAction({
  id: 'font.list',
  label: 'List fonts',
  doc: 'Lists the font catalog: each face with the name presentation software uses, category, weights, italic and licence.',
  group: 'render',
  milestone: 'M5',
  mutates: false,
  transports: 'CMHP',
  input: obj({}),
  output: planned(
    result({
      fonts: arr(
        obj({ name: str({ description: 'The name presentation software uses.' }), category: str(), weights: arr(int()), italic: bool(), licence: str() }),
        { description: 'Faces.' },
      ),
    }),
  ),
  cli: 'fonts list',
  mcp: 'deck_fonts_list',
  example: {},
})
