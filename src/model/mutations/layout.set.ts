import { ok, type Apply, type LayoutSetMutation } from './types.js'
import { themeFonts } from '../themes.js'
import { assignSlide, changeLayout } from './slide-ops.js'

/** As slide.setLayout: geometry measures boxes (to freeform) or refiles blocks into the new slots. */
export const apply: Apply<LayoutSetMutation> = (slide, mutation, doc) => {
  assignSlide(slide, changeLayout(slide, mutation.layout, undefined, themeFonts(doc.manifest)).slide)
  return ok
}
