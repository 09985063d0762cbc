import { defineAction } from '../../core/action.js'
import { bool, int, obj, opt, outline, SlideId } from '../../model/schema.js'

export const slideLease = defineAction({
  id: 'slide.lease',
  label: 'Lease slide',
  doc:
    "Takes a per-slide lock for the calling author (10 minutes by default), or gives it back with release. " +
    "While it is held, other authors' writes to the slide answer 409 unless forced. No baseRevision.",
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  deck: { kind: 'current' },
  input: obj({
    slideId: SlideId,
    minutes: opt(int({ minimum: 1, maximum: 480, default: 10, description: 'How long the lease lasts; 10 when absent.' })),
    force: opt(bool({ description: "Take the lease even when another author holds it." })),
    release: opt(bool({ description: "Give the author's lease back." })),
  }),
  output: outline({ slideId: 'The slide.', holder: 'The author holding the lease, or null when released.', expiresAt: 'When the lease ends.' }),
  cli: 'lease <slideId> --minutes <minutes> --force --release',
  mcp: 'deck_lease_slide',
  annotations: { idempotent: true },
  example: { slideId: 'title-body-2', minutes: 10 },
})
