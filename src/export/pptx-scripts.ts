/**
 * Script faces in native PPTX. pptxgenjs names the run's face as its Latin, East Asian and complex-
 * script typeface alike ("Inter" three times), so PowerPoint and LibreOffice look for Chinese in Inter
 * and draw it in whatever the machine has. A run holding CJK text names the Noto face the renderer draws
 * it in (src/model/fonts.ts: Japanese with kana, Korean with hangul, Chinese otherwise) as its `a:ea`
 * typeface; one holding Arabic or Hebrew names Noto Sans Arabic or Noto Sans Hebrew as its `a:cs`
 * typeface. The theme's font scheme names the same faces for those scripts, for text a person adds.
 */
import { cjkLanguage, FALLBACK_FAMILIES } from '../model/fonts.js'

const CJK = /[\u2e80-\u2fff\u3040-\u30ff\u3100-\u318f\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\u{20000}-\u{3ffff}]/u
const face = (script: string) => FALLBACK_FAMILIES.find((f) => f.script === script)!.name

const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (whole, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e.toLowerCase()] ?? whole
  })

/** The East Asian and complex-script faces a run's text needs (undefined where the theme face serves). */
export function scriptFacesOf(text: string): { ea?: string; cs?: string } {
  return {
    ea: CJK.test(text) ? face(cjkLanguage(text)) : undefined,
    cs: /\p{Script=Hebrew}/u.test(text) ? face('hebrew') : /\p{Script=Arabic}/u.test(text) ? face('arabic') : undefined,
  }
}

/** A slide part with each run's `a:ea` / `a:cs` typeface set to the face its text needs; the faces named are added to `used`. */
export function withScriptFaces(xml: string, used: Set<string>): string {
  return xml.replace(/<a:r>(<a:rPr\b[^>]*>[\s\S]*?<\/a:rPr>)<a:t>([^<]*)<\/a:t><\/a:r>/g, (run, rPr: string, text: string) => {
    const { ea, cs } = scriptFacesOf(decode(text))
    if (!ea && !cs) return run
    let props = rPr
    if (ea) props = props.replace(/<a:ea typeface="[^"]*"/, `<a:ea typeface="${ea}"`)
    if (cs) props = props.replace(/<a:cs typeface="[^"]*"/, `<a:cs typeface="${cs}"`)
    for (const name of [ea, cs]) if (name && props.includes(`typeface="${name}"`)) used.add(name)
    return `<a:r>${props}<a:t>${text}</a:t></a:r>`
  })
}

const SCHEME_SCRIPTS: Record<string, string> = { Jpan: 'ja', Hang: 'ko', Hans: 'zh', Arab: 'arabic', Hebr: 'hebrew' }

/** The theme part with its font scheme naming the Noto faces for Japanese, Korean, Simplified Chinese, Arabic and Hebrew. */
export function withSchemeScriptFaces(xml: string): string {
  return xml.replace(/<a:font script="(Jpan|Hang|Hans|Arab|Hebr)" typeface="[^"]*"\/>/g, (_, script: string) => `<a:font script="${script}" typeface="${face(SCHEME_SCRIPTS[script])}"/>`)
}
