import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import sharp from 'sharp'
import { ingestRaster, MAX_SIDE, twinsOf } from '../../../src/media/images.js'
import { StudioError } from '../../../src/core/errors.js'
import { claimedPng } from '../../helpers/images.js'

const refused = (code: string) => (error: unknown) => {
  assert.ok(error instanceof StudioError, String(error))
  assert.equal(error.code, code)
  return true
}

describe('raster pictures entering a deck', () => {
  it('applies the EXIF orientation to the pixels and strips every metadata block (no GPS leaves the phone)', async () => {
    // 300 × 100, red on the left third; EXIF orientation 6 (rotate 90° clockwise to display) and a GPS-bearing EXIF.
    const red = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer()
    const photo = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#0000ff' } })
      .composite([{ input: red, left: 0, top: 0 }])
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'X' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg()
      .toBuffer()
    const before = await sharp(photo).metadata()
    assert.equal(before.orientation, 6)
    assert.ok(before.exif)
    const stored = await ingestRaster(photo)
    assert.deepEqual([stored.format, stored.width, stored.height], ['jpg', 100, 300])
    const after = await sharp(stored.bytes).metadata()
    assert.equal(after.orientation, undefined)
    assert.equal(after.exif, undefined)
    assert.equal(after.xmp, undefined)
    assert.equal(stored.bytes.includes(Buffer.from('PhoneCo')), false)
    // Rotated clockwise: the red third is now at the top.
    const { data } = await sharp(stored.bytes).raw().toBuffer({ resolveWithObject: true })
    assert.ok(data[0] > 200 && data[2] < 60, `top-left pixel ${data[0]},${data[1]},${data[2]}`)
  })

  it('refuses a decompression bomb by its pixel count, whatever its byte size', async () => {
    const bomb = claimedPng(50_000, 50_000)
    assert.ok(bomb.length < 200)
    await assert.rejects(ingestRaster(bomb), refused('invalid_input'))
  })

  it('refuses a file over the byte cap before reading it, and bytes that are no picture', async () => {
    await assert.rejects(ingestRaster(Buffer.alloc(2048, 1), { maxBytes: 1024 }), refused('payload_too_large'))
    await assert.rejects(ingestRaster(Buffer.from('<html><body>not a picture</body></html>')), refused('invalid_input'))
    await assert.rejects(ingestRaster(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')), refused('invalid_input'))
  })

  it('caps the longest side and never enlarges; keeps JPEG, PNG and WebP, and turns a GIF into PNG or JPEG', async () => {
    const wide = await sharp({ create: { width: 7000, height: 200, channels: 3, background: '#336699' } }).png().toBuffer()
    const capped = await ingestRaster(wide)
    assert.deepEqual([capped.format, capped.width, capped.height], ['png', MAX_SIDE, Math.round((200 * MAX_SIDE) / 7000)])
    const small = await sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } }).webp().toBuffer()
    assert.deepEqual(await ingestRaster(small).then((i) => [i.format, i.width, i.height, i.input.hasAlpha]), ['webp', 40, 30, true])
    const gif = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#00ff00' } }).gif().toBuffer()
    const fromGif = await ingestRaster(gif)
    assert.equal(fromGif.input.format, 'gif')
    assert.ok(['png', 'jpg'].includes(fromGif.format))
    assert.equal((await sharp(fromGif.bytes).metadata()).format, fromGif.format === 'jpg' ? 'jpeg' : 'png')
  })

  it('is deterministic and makes twins at the rendered widths, never wider than the picture', async () => {
    const photo = await sharp({ create: { width: 4000, height: 2000, channels: 3, background: '#884422' } }).jpeg().toBuffer()
    const a = await ingestRaster(photo)
    const b = await ingestRaster(photo)
    assert.equal(a.digest, b.digest)
    assert.deepEqual((await twinsOf(a)).map((t) => [t.scale, t.width, t.height]), [[1, 1600, 800], [2, 3200, 1600]])
    const narrow = await ingestRaster(await sharp({ create: { width: 1000, height: 500, channels: 3, background: '#884422' } }).jpeg().toBuffer())
    assert.deepEqual((await twinsOf(narrow)).map((t) => t.width), [1000, 1000])
  })
})
