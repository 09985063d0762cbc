import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { defineAction } from '../../core/action.js'
import { deckKey, templateKey } from '../../core/engine.js'
import { fail } from '../../core/errors.js'
import { slideTitle, orderedSlides, type DeckDoc, cloneDoc } from '../../model/deck.js'
import { arr, bool, BR, DeckId, int, lit, nullable, obj, oneOf, opt, SectionId, SlideId, str, TemplateId } from '../../model/schema.js'
import { BrandKit } from '../../model/deck.js'
import { result, RevisionIfWritten, written } from '../../model/results.js'
import { findTheme } from '../../model/themes.js'
import { canonicalJson } from '../../store/canonical.js'
import { docFiles } from '../../store/decks.js'
import { DEFAULT_TEMPLATE, defaultTemplateId, findTemplate, listTemplates, orgDir, readTemplateDeck, type TemplateCard, type TemplateInfo } from '../../store/templates.js'
import type { ActionContext } from '../../core/action.js'
import { slugOf } from './lifecycle.js'
import { WITH_TEMPLATE } from '../given.js'

const card = (t: TemplateInfo) => ({
  id: t.id,
  name: t.name,
  category: t.category,
  cover: t.cover ?? null,
  sentence: t.sentence,
  slides: t.slides,
  theme: findTheme(t.theme)?.id ?? t.theme,
  appearance: t.appearance,
  organisation: t.organisation,
  brandKit: t.brandKit ?? null,
})

export const templateList = defineAction({
  id: 'template.list',
  label: 'List templates',
  doc: 'Every template (shipped, then the organisation templates saved in this workspace) with name, category, cover, sentence, slide count, theme, appearance, organisation flag and brand kit, plus the id of the template new presentations start from.',
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({}),
  output: result({
    templates: arr(
      obj({
        id: TemplateId,
        name: str(),
        category: str(),
        cover: { ...nullable(str()), description: 'The cover picture, or null.' },
        sentence: str(),
        slides: int({ minimum: 0, description: 'Slide count.' }),
        theme: str({ description: 'The theme id.' }),
        appearance: oneOf(['light', 'dark']),
        organisation: bool({ description: 'true for templates saved in this workspace; shipped ones cannot be changed.' }),
        brandKit: { ...nullable(BrandKit), description: 'The brand kit it carries, or null.' },
      }),
      { description: 'Template cards: shipped first, then the organisation templates.' },
    ),
    default: { ...TemplateId, description: 'The template new presentations start from.' },
  }),
  cli: 'template list',
  mcp: 'deck_list_templates',
  example: {},
  run: async (ctx) => ({ templates: (await listTemplates(ctx.ws)).map(card), default: await defaultTemplateId(ctx.ws) }),
  human: (r: { templates: ReturnType<typeof card>[]; default: string }) =>
    r.templates.map((t) => `${t.id === r.default ? '*' : ' '} ${t.id}  ${t.name}  (${t.slides} slides${t.organisation ? ', organisation' : ', shipped'})  ${t.sentence}`).join('\n'),
})

export const templateSlides = defineAction({
  id: 'template.slides',
  label: 'List template slides',
  doc: "A template's slides in order, with titles and kinds (layouts).",
  group: 'deck',
  milestone: 'M1',
  mutates: false,
  capability: null,
  transports: 'CMHP',
  input: obj({ id: TemplateId }),
  output: result({
    id: TemplateId,
    slides: arr(obj({ id: SlideId, title: str(), kind: str({ description: 'The layout.' }), section: SectionId }), { description: 'In deck order.' }),
  }),
  cli: 'template slides <id>',
  mcp: 'deck_template_slides',
  example: { id: 'blank' },
  run: async (ctx, input: { id: string }) => {
    const doc = await readTemplateDeck(await findTemplate(ctx.ws, input.id))
    const sectionOf = new Map(doc.manifest.sections.flatMap((s) => s.slides.map((id) => [id, s.id] as const)))
    return { id: input.id, slides: orderedSlides(doc).map((s) => ({ id: s.id, title: slideTitle(s), kind: s.layout, section: sectionOf.get(s.id) })) }
  },
})

async function orgTemplate(ctx: ActionContext, id: string): Promise<TemplateInfo> {
  const template = await findTemplate(ctx.ws, id)
  if (!template.organisation) fail('read_only', `"${id}" is a shipped template; shipped templates cannot be changed or deleted.`, { pointer: '/id' })
  return template
}

/** Stages a template folder: template.json plus the deck's files and assets (old files removed). */
function stageTemplateFolder(ctx: ActionContext, slug: string, cardData: TemplateCard, doc: DeckDoc, replacing: boolean) {
  const rel = `decks/templates/${slug}`
  if (replacing) ctx.stageRemoveDir(rel)
  const copy = cloneDoc(doc)
  copy.manifest = { ...copy.manifest, id: slug, revision: 0 }
  delete copy.manifest.trashedAt
  copy.versions = []
  for (const [file, text] of docFiles(copy)) ctx.stageFile(`${rel}/${file}`, text)
  ctx.stageFile(`${rel}/template.json`, canonicalJson(cardData))
  if (existsSync(join(ctx.ws.deckDir(doc.manifest.id), 'assets'))) ctx.stageCopy(`decks/${doc.manifest.id}/assets`, `${rel}/assets`)
}

async function templateSlug(input: { id?: string; name?: string }): Promise<string> {
  return input.id ?? slugOf(input.name ?? '')
}

export const templateCreate = defineAction({
  id: 'template.create',
  label: 'Save a deck as a template',
  doc: "Saves the deck's manifest, slides, assets and brand kit as an organisation template under decks/templates/<slug of name>. A name an organisation template already carries replaces that template and keeps its slug. Does not change the deck.",
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'field', field: 'deckId' },
  locks: async (input: { name: string }) => [templateKey(await templateSlug(input))],
  input: obj({
    deckId: DeckId,
    name: str({ minLength: 1, maxLength: 120, description: 'Template name; its slug is the template id.' }),
    sentence: opt(str({ maxLength: 300, description: "One-line description; default 'Saved from <deck title>'." })),
    baseRevision: BR,
  }),
  output: written({
    id: TemplateId,
    name: str({ description: 'The template name.' }),
    slides: int({ minimum: 0, description: 'Slide count.' }),
    replaced: bool({ description: 'true when an organisation template of that name was replaced.' }),
    revision: int({ minimum: 0, description: 'The revision of the deck the template was saved from.' }),
  }),
  cli: 'template create <deckId> <name> --sentence <sentence>',
  mcp: 'deck_create_template',
  example: { deckId: 'quarterly-review', name: 'Quarterly review', baseRevision: 0 },
  run: async (ctx, input: { deckId: string; name: string; sentence?: string }) => {
    const doc = await ctx.target()
    const templates = await listTemplates(ctx.ws)
    const sameName = templates.find((t) => t.organisation && t.name.toLowerCase() === input.name.toLowerCase())
    let slug = sameName?.id ?? (await slugOf(input.name))
    if (!sameName && templates.some((t) => t.id === slug)) {
      const taken = templates.find((t) => t.id === slug)!
      fail('id_taken', `The ${taken.organisation ? 'organisation' : 'shipped'} template "${slug}" (${taken.name}) already uses this id; choose another name.`, { pointer: '/name' })
    }
    const theme = findTheme(doc.manifest.theme)
    const cardData: TemplateCard = {
      id: slug,
      name: input.name,
      category: 'organisation',
      sentence: input.sentence ?? `Saved from ${doc.manifest.title}`,
      theme: theme?.id ?? doc.manifest.theme,
      appearance: doc.manifest.defaults?.appearance ?? 'light',
    }
    stageTemplateFolder(ctx, slug, cardData, doc, Boolean(sameName))
    return { id: slug, name: input.name, slides: Object.keys(doc.slides).length, replaced: Boolean(sameName), revision: doc.manifest.revision }
  },
})

export const templateUpdate = defineAction({
  id: 'template.update',
  label: 'Update a template from a deck',
  doc: "Replaces an organisation template's slides, assets and brand kit with a deck's; id and name stay, the sentence too unless given. Shipped templates are refused.",
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'field', field: 'deckId' },
  locks: (input: { id: string }) => [templateKey(input.id)],
  input: obj({ id: TemplateId, deckId: DeckId, sentence: opt(str({ maxLength: 300 })), baseRevision: BR }),
  output: written({
    id: TemplateId,
    slides: int({ minimum: 0, description: 'Slide count.' }),
    revision: int({ minimum: 0, description: 'The revision of the deck the template was saved from.' }),
  }),
  cli: 'template update <id> <deckId>',
  mcp: 'deck_update_template',
  given: WITH_TEMPLATE,
  example: { id: 'quarterly-review', deckId: 'quarterly-review', baseRevision: 0 },
  run: async (ctx, input: { id: string; deckId: string; sentence?: string }) => {
    const template = await orgTemplate(ctx, input.id)
    const doc = await ctx.target()
    const { dir: _dir, organisation: _org, slides: _slides, brandKit: _kit, ...cardData } = template
    stageTemplateFolder(ctx, template.id, { ...cardData, sentence: input.sentence ?? template.sentence }, doc, true)
    return { id: template.id, slides: Object.keys(doc.slides).length, revision: doc.manifest.revision }
  },
})

export const templateRename = defineAction({
  id: 'template.rename',
  label: 'Rename a template',
  doc: 'Renames an organisation template; its id and folder stay. Shipped templates are refused.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: 'admin',
  transports: 'CMHP',
  deck: { kind: 'none' },
  locks: (input: { id: string }) => [templateKey(input.id)],
  input: obj({ id: TemplateId, name: str({ minLength: 1, maxLength: 120 }) }),
  output: written({ id: TemplateId, name: str({ description: 'The new name.' }), revision: RevisionIfWritten }),
  cli: 'template rename <id> <name>',
  mcp: 'deck_rename_template',
  given: WITH_TEMPLATE,
  example: { id: 'quarterly-review', name: 'Quarterly business review' },
  annotations: { idempotent: true },
  run: async (ctx, input: { id: string; name: string }) => {
    const template = await orgTemplate(ctx, input.id)
    const { dir: _dir, organisation: _org, slides: _slides, brandKit: _kit, ...cardData } = template
    ctx.stageFile(`decks/templates/${template.id}/template.json`, canonicalJson({ ...cardData, name: input.name }))
    return { id: template.id, name: input.name }
  },
})

export const templateDelete = defineAction({
  id: 'template.delete',
  label: 'Delete a template',
  doc: 'Removes an organisation template folder; decks made from it are unchanged. The current default template and shipped templates are refused. Irreversible from studio.',
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: 'admin',
  transports: 'CMHP',
  deck: { kind: 'none' },
  locks: (input: { id: string }) => [templateKey(input.id), templateKey('default')],
  input: obj({ id: TemplateId, confirm: lit(true, { description: 'Must be the boolean true.' }) }),
  output: written({ id: TemplateId, removed: lit(true), revision: RevisionIfWritten }),
  cli: 'template delete <id> --confirm',
  mcp: 'deck_delete_template',
  given: WITH_TEMPLATE,
  example: { id: 'quarterly-review', confirm: true },
  annotations: { destructive: true },
  run: async (ctx, input: { id: string }) => {
    const template = await orgTemplate(ctx, input.id)
    if ((await defaultTemplateId(ctx.ws)) === template.id) fail('refused', `"${template.id}" is the default template; set another default first (studio template default blank).`, { pointer: '/id' })
    ctx.stageRemoveDir(`decks/templates/${template.id}`)
    return { id: template.id, removed: true }
  },
})

export const templateSetDefault = defineAction({
  id: 'template.setDefault',
  label: 'Set the default template',
  doc: "Names the template new presentations (and the Blank card) start from, in decks/templates/default.json; 'blank' restores the shipped blank deck. An agent token needs the admin scope.",
  group: 'deck',
  milestone: 'M1',
  mutates: true,
  capability: 'admin',
  transports: 'CMHP',
  deck: { kind: 'none' },
  locks: () => [templateKey('default')],
  input: obj({ id: TemplateId }),
  output: written({ default: { ...TemplateId, description: 'The default template id.' }, revision: RevisionIfWritten }),
  cli: 'template default <id>',
  mcp: 'deck_set_default_template',
  example: { id: 'blank' },
  annotations: { idempotent: true },
  run: async (ctx, input: { id: string }) => {
    const template = await findTemplate(ctx.ws, input.id)
    ctx.stageFile(`decks/templates/default.json`, canonicalJson({ id: template.id }))
    return { default: template.id }
  },
})

export { DEFAULT_TEMPLATE, orgDir, deckKey }
