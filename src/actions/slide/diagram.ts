import { defineAction } from '../../core/action.js'
import { BlockId, Box, BR, int, obj, oneOf, opt, outline, SlideId } from '../../model/schema.js'

export const diagramInsert = defineAction({
  id: 'diagram.insert',
  label: 'Insert diagram',
  doc:
    'Inserts one group of shape, text and line objects, centred on the sheet unless a box is given; converts a non-canvas slide first. ' +
    'The result names the ids.',
  group: 'slide',
  milestone: 'M2',
  mutates: true,
  transports: 'CMHP',
  input: obj({
    slideId: SlideId,
    kind: oneOf(['grid', 'hierarchy', 'timeline', 'process', 'relationship', 'cycle'], { description: 'The diagram kind.' }),
    count: int({ minimum: 1, maximum: 12, description: 'How many items the diagram holds.' }),
    style: opt(oneOf(['outline', 'plate', 'ink'], { description: 'The drawing style.' })),
    pos: opt({ ...Box, description: 'The box the diagram fills, in sheet px; centred on the sheet when absent.' }),
    after: opt({ ...BlockId, description: 'The block the group follows in the stack.' }),
    baseRevision: BR,
  }),
  output: outline({ group: 'The group tag of the diagram.', blockIds: 'Ids of the inserted objects.', slide: 'The normalized slide.', revision: 'The new revision.' }),
  cli: 'diagram insert <slideId> --kind <kind> --count <count> --style <style> --pos <pos>',
  mcp: 'deck_insert_diagram',
  example: { slideId: 'freeform-3', kind: 'process', count: 4, style: 'outline', baseRevision: 3 },
})
