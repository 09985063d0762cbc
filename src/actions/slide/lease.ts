import { defineAction } from '../../core/action.js'
import { StudioError } from '../../core/errors.js'
import { findSlide } from '../../model/edit.js'
import { bool, int, nullable, obj, opt, SlideId, str } from '../../model/schema.js'
import { RevisionIfWritten, written } from '../../model/results.js'
import { leaseOf, writeLease, type Lease } from '../../store/leases.js'

export const LEASE_MINUTES = 10

export const slideLease = defineAction({
  id: 'slide.lease',
  label: 'Lease slide',
  doc:
    "Takes a per-slide lock for the calling author (10 minutes by default; taking it again renews it), or gives it back with release. " +
    "While it is held, other authors' writes to the slide answer 409 (code leased, naming the holder) unless forced; force also takes " +
    'or releases a lease another author holds. No baseRevision, and no commit: leases live outside the deck, in .studio/.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'current' },
  input: obj({
    slideId: SlideId,
    minutes: opt(int({ minimum: 1, maximum: 480, default: LEASE_MINUTES, description: 'How long the lease lasts; 10 when absent.' })),
    force: opt(bool({ description: 'Take (or release) the lease even when another author holds it.' })),
    release: opt(bool({ description: "Give the author's lease back." })),
  }),
  output: written({
    slideId: SlideId,
    lease: { ...nullable(obj({ author: str(), until: str({ format: 'date-time' }) })), description: 'The lease now held: author and until; null once released.' },
    revision: RevisionIfWritten,
  }),
  cli: 'lease <slideId> --minutes <minutes> --force --release',
  mcp: 'deck_lease_slide',
  annotations: { idempotent: true },
  example: { slideId: 'title-1', minutes: 10 },
  run: async (ctx, input: { slideId: string; minutes?: number; force?: boolean; release?: boolean }) => {
    const doc = await ctx.target()
    const deckId = doc.manifest.id
    findSlide(doc, input.slideId)
    const author = ctx.principal.author
    const held = leaseOf(ctx.ws, deckId, input.slideId)
    if (held && held.author !== author && !input.force) {
      throw new StudioError('leased', `Slide "${input.slideId}" is leased by ${held.author} until ${held.until}. Retry with force to take it.`, {
        holder: { author: held.author, until: held.until, slideId: input.slideId },
      })
    }
    // The lease file is local state outside git, written here under the deck's lock; nothing is staged.
    if (input.release) {
      if (held) await writeLease(ctx.ws, deckId, input.slideId, null)
      return { slideId: input.slideId, lease: null }
    }
    const lease: Lease = { author, until: new Date(Date.now() + (input.minutes ?? LEASE_MINUTES) * 60_000).toISOString() }
    await writeLease(ctx.ws, deckId, input.slideId, lease)
    return { slideId: input.slideId, lease }
  },
})
