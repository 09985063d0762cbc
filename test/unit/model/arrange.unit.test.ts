import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  alignBoxes,
  alignTarget,
  centreOf,
  distributeBoxes,
  edgeAxis,
  edgeOf,
  facingSides,
  flipPlacements,
  orderAlong,
  resizeBox,
  restack,
  rotatePlacements,
  selectionCentre,
  sidePoint,
  snapEdge,
  unionBox,
  visualBounds,
  type Box,
  type Edge,
  type Placement,
} from '../../../src/model/arrange.js'

const EPS = 1e-6
const close = (a: number, b: number, eps = EPS) => Math.abs(a - b) <= eps * Math.max(1, Math.abs(a), Math.abs(b))

const coord = fc.double({ min: -2000, max: 3000, noNaN: true, noDefaultInfinity: true })
const size = fc.double({ min: 0, max: 1200, noNaN: true, noDefaultInfinity: true })
const box = fc.record({ x: coord, y: coord, w: size, h: size }, { noNullPrototype: true })
const boxes = (min = 1, max = 8) => fc.array(box, { minLength: min, maxLength: max })
const edge = fc.constantFrom<Edge>('left', 'center', 'right', 'top', 'middle', 'bottom')
const angle = fc.double({ min: 0, max: 359.999, noNaN: true })
const flip = fc.record({ h: fc.constant(true), v: fc.constant(true) }, { requiredKeys: [], noNullPrototype: true })
const placement: fc.Arbitrary<Placement> = fc.record({ box, angle, flip }, { noNullPrototype: true })
const placements = fc.array(placement, { minLength: 1, maxLength: 6 })

describe('align', () => {
  it('puts every box on the target edge and moves only the named axis', () => {
    fc.assert(
      fc.property(boxes(), edge, coord, (input, e, target) => {
        const out = alignBoxes(input, e, target)
        const other = edgeAxis(e) === 'x' ? ('y' as const) : ('x' as const)
        out.forEach((b, i) => {
          assert.ok(close(edgeOf(b, e), target))
          assert.equal(b[other], input[i][other])
          assert.equal(b.w, input[i].w)
          assert.equal(b.h, input[i].h)
        })
      }),
    )
  })

  it("aligns a selection to its extreme object's own edge: the leftmost box does not move on left", () => {
    fc.assert(
      fc.property(boxes(2), (input) => {
        const target = alignTarget(input, 'left')
        assert.equal(target, Math.min(...input.map((b) => b.x)))
        const out = alignBoxes(input, 'left', target)
        const still = input.findIndex((b) => b.x === target)
        assert.ok(out[still].x === input[still].x && out[still].y === input[still].y)
      }),
    )
  })

  it('aligns to a frame edge exactly (sheet, content box)', () => {
    const sheet = { x: 0, y: 0, w: 1600, h: 900 }
    assert.equal(alignTarget([{ x: 5, y: 5, w: 10, h: 10 }], 'right', sheet), 1600)
    assert.equal(alignTarget([{ x: 5, y: 5, w: 10, h: 10 }], 'middle', sheet), 450)
  })

  it('snaps a shared edge to a guide within 8 px, else to the 8 px grid', () => {
    assert.equal(snapEdge(803, [800, 1200]), 800)
    assert.equal(snapEdge(813, [800]), 816)
    assert.equal(snapEdge(101, []), 104)
    fc.assert(fc.property(coord, (v) => assert.equal(snapEdge(v) % 8 === 0 || Object.is(snapEdge(v) % 8, -0), true)))
  })
})

describe('distribute', () => {
  it('leaves equal gaps between neighbours, keeping the first and the last in place', () => {
    fc.assert(
      fc.property(boxes(3, 9), fc.constantFrom('x' as const, 'y' as const), (input, axis) => {
        const out = distributeBoxes(input, axis)
        const order = orderAlong(input, axis)
        const start = (b: Box) => (axis === 'x' ? b.x : b.y)
        const end = (b: Box) => (axis === 'x' ? b.x + b.w : b.y + b.h)
        const same = (a: Box, b: Box) => a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h
        assert.ok(same(out[order[0]], input[order[0]]))
        assert.ok(same(out[order[order.length - 1]], input[order[order.length - 1]]))
        const gaps = order.slice(1).map((i, k) => start(out[i]) - end(out[order[k]]))
        for (const gap of gaps) assert.ok(close(gap, gaps[0], 1e-9) || Math.abs(gap - gaps[0]) < 1e-6, `gaps ${gaps}`)
        const other = axis === 'x' ? 'y' : 'x'
        out.forEach((b, i) => assert.equal(b[other], input[i][other]))
      }),
    )
  })

  it('with a fixed gap, keeps the first and spaces each next one by the gap', () => {
    fc.assert(
      fc.property(boxes(2, 8), fc.double({ min: 0, max: 200, noNaN: true }), (input, gap) => {
        const out = distributeBoxes(input, 'x', { gap })
        const order = orderAlong(input, 'x')
        assert.ok(out[order[0]].x === input[order[0]].x)
        for (let k = 1; k < order.length; k++) assert.ok(Math.abs(out[order[k]].x - (out[order[k - 1]].x + out[order[k - 1]].w) - gap) < 1e-6)
      }),
    )
  })

  it('with snap, puts every moved start edge on the 8 px grid', () => {
    fc.assert(
      fc.property(boxes(3, 8), (input) => {
        const out = distributeBoxes(input, 'y', { snap: true })
        const order = orderAlong(input, 'y')
        for (const i of order.slice(1, -1)) assert.equal(Math.abs(out[i].y % 8), 0)
      }),
    )
  })
})

describe('stacking order', () => {
  const stack = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 })
  const op = fc.oneof(fc.record({ move: fc.constantFrom('front' as const, 'back' as const, 'forward' as const, 'backward' as const) }), fc.record({ z: fc.integer({ min: 0, max: 40 }) }))

  it('stays a dense permutation of the same ids after any sequence of moves', () => {
    fc.assert(
      fc.property(stack, fc.array(fc.tuple(fc.nat(), op), { maxLength: 10 }), (ids, ops) => {
        let current = [...ids]
        for (const [pick, o] of ops) current = restack(current, current[pick % current.length], o)
        assert.equal(current.length, ids.length)
        assert.deepEqual([...current].sort(), [...ids].sort())
      }),
    )
  })

  it('moves to the front, the back, one step, or to a clamped rank', () => {
    assert.deepEqual(restack(['a', 'b', 'c'], 'a', { move: 'front' }), ['b', 'c', 'a'])
    assert.deepEqual(restack(['a', 'b', 'c'], 'c', { move: 'back' }), ['c', 'a', 'b'])
    assert.deepEqual(restack(['a', 'b', 'c'], 'a', { move: 'forward' }), ['b', 'a', 'c'])
    assert.deepEqual(restack(['a', 'b', 'c'], 'a', { move: 'backward' }), ['a', 'b', 'c'])
    assert.deepEqual(restack(['a', 'b', 'c'], 'a', { z: 99 }), ['b', 'c', 'a'])
    assert.deepEqual(restack(['a', 'b', 'c'], 'c', { z: 1 }), ['a', 'c', 'b'])
  })
})

describe('rotation about a centre', () => {
  it('about the selection keeps the union centre for quarter turns, and every member keeps its distance from it', () => {
    fc.assert(
      fc.property(placements, fc.integer({ min: -8, max: 8 }), fc.double({ min: -720, max: 720, noNaN: true }), (items, quarters, degrees) => {
        const pivot = selectionCentre(items)
        const turned = rotatePlacements(items, quarters * 90, pivot)
        const after = selectionCentre(turned)
        assert.ok(close(after.x, pivot.x, 1e-9) && close(after.y, pivot.y, 1e-9), `${JSON.stringify(pivot)} → ${JSON.stringify(after)}`)
        const any = rotatePlacements(items, degrees, pivot)
        any.forEach((item, i) => {
          const before = Math.hypot(centreOf(items[i].box).x - pivot.x, centreOf(items[i].box).y - pivot.y)
          const now = Math.hypot(centreOf(item.box).x - pivot.x, centreOf(item.box).y - pivot.y)
          assert.ok(close(before, now, 1e-9))
          assert.ok(item.angle >= 0 && item.angle < 360)
        })
      }),
    )
  })

  it('turning by d and then by -d about the same pivot gives the boxes back', () => {
    fc.assert(
      fc.property(placements, fc.double({ min: -360, max: 360, noNaN: true }), (items, degrees) => {
        const pivot = selectionCentre(items)
        const back = rotatePlacements(rotatePlacements(items, degrees, pivot), -degrees, pivot)
        back.forEach((item, i) => {
          assert.ok(close(item.box.x, items[i].box.x, 1e-9) && close(item.box.y, items[i].box.y, 1e-9))
          assert.equal(item.box.w, items[i].box.w)
        })
      }),
    )
  })

  it('about each object keeps every box where it is', () => {
    fc.assert(fc.property(placements, angle, (items, degrees) => rotatePlacements(items, degrees).forEach((item, i) => assert.deepEqual(item.box, items[i].box))))
  })

  it('is clockwise on screen: a point right of the centre turns to below it', () => {
    const [turned] = rotatePlacements([{ box: { x: 100, y: -5, w: 10, h: 10 }, angle: 0, flip: {} }], 90, { x: 0, y: 0 })
    assert.ok(close(centreOf(turned.box).x, 0) && close(centreOf(turned.box).y, 105))
  })
})

describe('flip', () => {
  it('twice is the identity, about each object and about the selection', () => {
    fc.assert(
      fc.property(placements, fc.constantFrom('h' as const, 'v' as const), fc.boolean(), (items, axis, selection) => {
        const once = flipPlacements(items, axis, selection ? selectionCentre(items) : undefined)
        const twice = flipPlacements(once, axis, selection ? selectionCentre(once) : undefined)
        twice.forEach((item, i) => {
          assert.ok(close(item.box.x, items[i].box.x, 1e-9) && close(item.box.y, items[i].box.y, 1e-9))
          assert.ok(close(item.angle, items[i].angle, 1e-9) || close(Math.abs(item.angle - items[i].angle), 360, 1e-9))
          assert.deepEqual(item.flip, items[i].flip)
        })
      }),
    )
  })

  it('about the selection mirrors centres about the union centre and turns each angle into 360 minus it', () => {
    const items: Placement[] = [
      { box: { x: 0, y: 0, w: 100, h: 50 }, angle: 30, flip: {} },
      { box: { x: 300, y: 0, w: 100, h: 50 }, angle: 0, flip: { h: true } },
    ]
    const pivot = selectionCentre(items)
    const out = flipPlacements(items, 'h', pivot)
    assert.ok(close(centreOf(out[0].box).x, 2 * pivot.x - 50))
    assert.equal(out[0].box.y, 0)
    assert.equal(out[0].angle, 330)
    assert.deepEqual(out[0].flip, { h: true })
    assert.ok(close(centreOf(out[1].box).x, 2 * pivot.x - 350))
    assert.equal(out[1].angle, 0)
    assert.deepEqual(out[1].flip, {})
  })

  it('keeps the union centre of what the selection covers', () => {
    fc.assert(
      fc.property(placements, fc.constantFrom('h' as const, 'v' as const), (items, axis) => {
        const pivot = selectionCentre(items)
        const after = selectionCentre(flipPlacements(items, axis, pivot))
        assert.ok(close(after.x, pivot.x, 1e-9) && close(after.y, pivot.y, 1e-9))
      }),
    )
  })
})

describe('connector ends', () => {
  it('meet the facing sides of two objects side by side', () => {
    const a: Placement = { box: { x: 0, y: 0, w: 100, h: 100 }, angle: 0, flip: {} }
    const b: Placement = { box: { x: 300, y: 0, w: 100, h: 100 }, angle: 0, flip: {} }
    assert.deepEqual(facingSides(a, b), ['right', 'left'])
    assert.deepEqual(sidePoint(a, 'right'), { x: 100, y: 50 })
    assert.deepEqual(sidePoint(b, 'left'), { x: 300, y: 50 })
  })

  it('follow a turned or mirrored object', () => {
    const turned = sidePoint({ box: { x: 0, y: 0, w: 100, h: 50 }, angle: 90, flip: {} }, 'right')
    assert.ok(close(turned.x, 50) && close(turned.y, 75))
    assert.deepEqual(sidePoint({ box: { x: 0, y: 0, w: 100, h: 50 }, angle: 0, flip: { h: true } }, 'right'), { x: 0, y: 25 })
  })
})

describe('boxes', () => {
  it('resizes about an anchor point', () => {
    assert.deepEqual(resizeBox({ x: 100, y: 100, w: 200, h: 100 }, { w: 100 }, 'center'), { x: 150, y: 100, w: 100, h: 100 })
    assert.deepEqual(resizeBox({ x: 100, y: 100, w: 200, h: 100 }, { w: 100, h: 50 }, 'bottom-right'), { x: 200, y: 150, w: 100, h: 50 })
    assert.deepEqual(resizeBox({ x: 100, y: 100, w: 200, h: 100 }, { h: 50 }), { x: 100, y: 100, w: 200, h: 50 })
  })

  it('bounds a quarter-turned box by its swapped sides', () => {
    assert.deepEqual(visualBounds({ x: 0, y: 0, w: 100, h: 50 }, 90), { x: 25, y: -25, w: 50, h: 100 })
    assert.deepEqual(unionBox([{ x: 0, y: 0, w: 1, h: 1 }, { x: 5, y: -5, w: 1, h: 1 }]), { x: 0, y: -5, w: 6, h: 6 })
  })
})
