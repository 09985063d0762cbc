import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { deflateRawSync } from 'node:zlib'
import yauzl from 'yauzl'
import { BUNDLE_LIMITS, BUNDLE_VERSION, packBundle, readBundle } from '../../../src/store/bundle.js'
import { StudioError } from '../../../src/core/errors.js'
import { S_IFLNK, S_IFREG, unixAttributes, writeZip, type RawZipEntry } from '../../helpers/zip.js'

const BUNDLE_MODULE = new URL('../../../src/store/bundle.ts', import.meta.url)

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex')
}

/** A small deck: deck.json, two slides, versions, comments, a binary asset and a nested one. */
function deckFiles(): Map<string, Buffer> {
  return new Map<string, Buffer>([
    ['deck.json', Buffer.from('{\n  "id": "q3-review",\n  "title": "Q3 review"\n}\n')],
    ['slides/s-intro.json', Buffer.from('{\n  "id": "s-intro",\n  "blocks": []\n}\n')],
    ['slides/s-numbers.json', Buffer.from('{\n  "id": "s-numbers",\n  "blocks": [{"text": "€ 12 · 💹"}]\n}\n')],
    ['versions.json', Buffer.from('[]\n')],
    ['comments/index.json', Buffer.from('{"revision":1}\n')],
    ['comments/t-0123456789.json', Buffer.from('{"id":"t-0123456789"}\n')],
    ['assets/logo.png', randomBytes(4096)],
    ['assets/photos/2024/team shot.jpg', randomBytes(1536 * 1024)], // over 1 MiB, incompressible
    ['assets/empty.txt', Buffer.alloc(0)],
  ])
}

/** A fixed deck (no randomness), so bytes can be compared across processes. */
function fixedDeckFiles(): Map<string, Buffer> {
  const pattern = Buffer.alloc(70_000)
  for (let i = 0; i < pattern.length; i++) pattern[i] = (i * 7919 + (i >> 5)) & 0xff
  return new Map<string, Buffer>([
    ['slides/b.json', Buffer.from('{"id":"b"}\n')],
    ['deck.json', Buffer.from('{"id":"fixed"}\n')],
    ['assets/pattern.bin', pattern],
    ['slides/a.json', Buffer.from('{"id":"a"}\n')],
  ])
}

interface CraftOptions {
  /** Manifest overrides merged over the computed one. */
  manifest?: Record<string, unknown>
  /** Paths to leave out of the manifest's files. */
  unlisted?: string[]
  /** Extra manifest file entries (path → digest). */
  listed?: Record<string, string>
}

/**
 * A bundle written with the raw test writer: a valid base deck plus `extra` entries, and a manifest
 * that lists every file entry with its true digest (unless told otherwise). So the only defect in
 * the zip is the one the test adds.
 */
function craft(extra: RawZipEntry[] = [], options: CraftOptions = {}): Buffer {
  const base: RawZipEntry[] = [
    { name: 'deck.json', data: Buffer.from('{"id":"crafted"}\n') },
    { name: 'slides/s1.json', data: Buffer.from('{"id":"s1"}\n') },
  ]
  const entries = [...base, ...extra]
  const files: Record<string, string> = {}
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue
    if (options.unlisted?.includes(entry.name)) continue
    files[entry.name] = sha256(entry.data ?? Buffer.alloc(0))
  }
  Object.assign(files, options.listed)
  const manifest = { bundleVersion: 1, deckId: 'crafted', revision: 3, files, ...options.manifest }
  return writeZip([{ name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n') }, ...entries])
}

async function assertRefused(
  promise: Promise<unknown>,
  code: 'refused' | 'payload_too_large',
  message: RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof StudioError, `expected a StudioError, got ${String(error)}`)
    assert.equal(error.code, code, `code for: ${error.message}`)
    assert.match(error.message, message)
    return true
  })
}

interface CentralEntry {
  name: string
  externalFileAttributes: number
  date: Date
  compressionMethod: number
  compressedSize: number
  comment: string
}

async function listEntries(zip: Buffer): Promise<{ entries: CentralEntry[]; comment: string }> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true })
  const entries: CentralEntry[] = []
  for await (const entry of zipfile.eachEntry()) {
    entries.push({
      name: entry.fileName,
      externalFileAttributes: entry.externalFileAttributes,
      date: entry.getLastModDate({ timezone: 'UTC' }),
      compressionMethod: entry.compressionMethod,
      compressedSize: entry.compressedSize,
      comment: entry.fileComment,
    })
  }
  return { entries, comment: zipfile.comment }
}

describe('packBundle / readBundle round trip', () => {
  it('reads back byte-identical files and the manifest', async () => {
    const files = deckFiles()
    const zip = await packBundle(files, { deckId: 'q3-review', revision: 7 })
    const read = await readBundle(zip)

    assert.deepEqual([...read.files.keys()].sort(), [...files.keys()].sort())
    for (const [path, data] of files) assert.ok(read.files.get(path)!.equals(data), `bytes of ${path}`)
    assert.equal(read.files.has('manifest.json'), false)
    assert.equal(read.manifest.bundleVersion, BUNDLE_VERSION)
    assert.equal(read.manifest.deckId, 'q3-review')
    assert.equal(read.manifest.revision, 7)
    assert.deepEqual(read.manifest.files, Object.fromEntries([...files].map(([p, d]) => [p, sha256(d)])))
  })

  it('reads a bundle from a file path as well as from a buffer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'))
    try {
      const files = fixedDeckFiles()
      const path = join(dir, 'deck.zip')
      writeFileSync(path, await packBundle(files, { deckId: 'fixed', revision: 0 }))
      const read = await readBundle(path)
      assert.equal(read.manifest.deckId, 'fixed')
      for (const [name, data] of files) assert.ok(read.files.get(name)!.equals(data), name)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('writes the documented layout: manifest first, sorted paths, fixed date and mode, deflate, no directories or comments', async () => {
    const files = fixedDeckFiles()
    const zip = await packBundle(files, { deckId: 'fixed', revision: 2 })
    const { entries, comment } = await listEntries(zip)

    const names = entries.map((e) => e.name)
    assert.deepEqual(names, ['manifest.json', 'assets/pattern.bin', 'deck.json', 'slides/a.json', 'slides/b.json'])
    assert.equal(comment, '')
    for (const entry of entries) {
      assert.equal(entry.name.endsWith('/'), false)
      assert.equal(entry.comment, '')
      assert.equal(entry.compressionMethod, 8, entry.name)
      assert.equal(entry.externalFileAttributes >>> 16, S_IFREG | 0o644, entry.name)
      assert.equal(entry.date.toISOString(), '1980-01-01T12:00:00.000Z', entry.name)
    }
    const pattern = entries.find((e) => e.name === 'assets/pattern.bin')!
    assert.equal(pattern.compressedSize, deflateRawSync(files.get('assets/pattern.bin')!, { level: 9 }).length, 'deflate level 9')

    const read = await readBundle(zip)
    const manifestText = JSON.stringify(read.manifest, null, 2) + '\n'
    const raw = await rawEntry(zip, 'manifest.json')
    assert.equal(raw.toString('utf8'), manifestText)
    assert.deepEqual(Object.keys(read.manifest.files), [...Object.keys(read.manifest.files)].sort())
  })
})

async function rawEntry(zip: Buffer, name: string): Promise<Buffer> {
  const zipfile = await yauzl.fromBufferPromise(zip, { lazyEntries: true })
  for await (const entry of zipfile.eachEntry()) {
    if (entry.fileName !== name) continue
    const stream = await zipfile.openReadStreamPromise(entry)
    const chunks: Buffer[] = []
    for await (const chunk of stream) chunks.push(chunk as Buffer)
    zipfile.close()
    return Buffer.concat(chunks)
  }
  throw new Error(`no entry ${name}`)
}

describe('packBundle determinism', () => {
  it('packs the same input to the same bytes, whatever the Map order', async () => {
    const files = fixedDeckFiles()
    const first = await packBundle(files, { deckId: 'fixed', revision: 4 })
    const reversed = new Map([...files].reverse())
    const second = await packBundle(reversed, { deckId: 'fixed', revision: 4 })
    assert.ok(first.equals(second), 'two packs differ')
    const other = await packBundle(files, { deckId: 'fixed', revision: 5 })
    assert.equal(first.equals(other), false, 'a different revision must change the bytes')
  })

  it('packs the same bytes in different time zones', async () => {
    const local = sha256(await packBundle(fixedDeckFiles(), { deckId: 'fixed', revision: 4 }))
    const script = `
      import { packBundle } from ${JSON.stringify(pathToFileURL(BUNDLE_MODULE.pathname).href)}
      import { createHash } from 'node:crypto'
      const pattern = Buffer.alloc(70000)
      for (let i = 0; i < pattern.length; i++) pattern[i] = (i * 7919 + (i >> 5)) & 0xff
      const files = new Map([
        ['slides/b.json', Buffer.from('{"id":"b"}\\n')],
        ['deck.json', Buffer.from('{"id":"fixed"}\\n')],
        ['assets/pattern.bin', pattern],
        ['slides/a.json', Buffer.from('{"id":"a"}\\n')],
      ])
      const zip = await packBundle(files, { deckId: 'fixed', revision: 4 })
      process.stdout.write(createHash('sha256').update(zip).digest('hex'))
    `
    const hashes: Record<string, string> = {}
    for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Pacific/Kiritimati']) {
      const env: NodeJS.ProcessEnv = { ...process.env, TZ: tz }
      delete env.NODE_TEST_CONTEXT
      hashes[tz] = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env, encoding: 'utf8' })
    }
    for (const [tz, hash] of Object.entries(hashes)) assert.equal(hash, local, `TZ=${tz}`)
  })
})

describe('packBundle refusals', () => {
  it('refuses names readBundle would refuse, and a deck without deck.json', async () => {
    const deck = Buffer.from('{}')
    await assertRefused(packBundle(new Map([['deck.json', deck], ['../x.json', deck]]), { deckId: 'a', revision: 0 }), 'refused', /"\.\.\/x\.json".*\.\./)
    await assertRefused(packBundle(new Map([['deck.json', deck], ['run.sh', deck]]), { deckId: 'a', revision: 0 }), 'refused', /"run\.sh".*outside the bundle layout/)
    await assertRefused(packBundle(new Map([['deck.json', deck], ['manifest.json', deck]]), { deckId: 'a', revision: 0 }), 'refused', /"manifest\.json".*more than once/)
    await assertRefused(packBundle(new Map([['deck.json', deck], ['assets/A.png', deck], ['assets/a.png', deck]]), { deckId: 'a', revision: 0 }), 'refused', /letter case/)
    await assertRefused(packBundle(new Map([['slides/a.json', deck]]), { deckId: 'a', revision: 0 }), 'refused', /deck\.json/)
    await assertRefused(packBundle(new Map([['deck.json', deck]]), { deckId: 'Bad_Id', revision: 0 }), 'refused', /deck id/)
    await assertRefused(packBundle(new Map([['deck.json', deck]]), { deckId: 'a', revision: -1 }), 'refused', /revision/)
  })

  it('refuses to pack an entry that readBundle would refuse as a zip bomb', async () => {
    const files = new Map([['deck.json', Buffer.from('{}')], ['assets/zeros.bin', Buffer.alloc(2 * 1024 * 1024)]])
    await assertRefused(packBundle(files, { deckId: 'a', revision: 0 }), 'payload_too_large', /"assets\/zeros\.bin".*200:1/)
  })
})

describe('readBundle accepts', () => {
  it('a well-formed crafted bundle (so the refusal fixtures below differ only by their defect)', async () => {
    const asset = randomBytes(100)
    const read = await readBundle(craft([{ name: 'assets/a.png', data: asset, method: 0 }]))
    assert.equal(read.manifest.deckId, 'crafted')
    assert.equal(read.manifest.revision, 3)
    assert.ok(read.files.get('assets/a.png')!.equals(asset))
    assert.deepEqual([...read.files.keys()].sort(), ['assets/a.png', 'deck.json', 'slides/s1.json'])
  })

  it('skips directory entries instead of refusing them', async () => {
    const read = await readBundle(craft([{ name: 'slides/', method: 0 }, { name: 'assets/', method: 0 }, { name: 'assets/x.bin', data: Buffer.from('x') }]))
    assert.deepEqual([...read.files.keys()].sort(), ['assets/x.bin', 'deck.json', 'slides/s1.json'])
  })
})

describe('readBundle refuses unsafe names', () => {
  it('an entry named ../evil.json', async () => {
    await assertRefused(readBundle(craft([{ name: '../evil.json', data: Buffer.from('{}') }])), 'refused', /"\.\.\/evil\.json".*"\.\."/)
  })

  it('an absolute path /abs.json', async () => {
    await assertRefused(readBundle(craft([{ name: '/abs.json', data: Buffer.from('{}') }])), 'refused', /"\/abs\.json".*absolute/)
  })

  it('a drive letter path C:/deck.json', async () => {
    await assertRefused(readBundle(craft([{ name: 'C:/deck.json', data: Buffer.from('{}') }])), 'refused', /"C:\/deck\.json".*(absolute|drive)/)
  })

  it('a backslash in slides\\x.json', async () => {
    await assertRefused(readBundle(craft([{ name: 'slides\\x.json', data: Buffer.from('{}') }])), 'refused', /slides\\\\x\.json".*backslash/)
  })

  it('slides/../../x', async () => {
    await assertRefused(readBundle(craft([{ name: 'slides/../../x', data: Buffer.from('{}') }])), 'refused', /"slides\/\.\.\/\.\.\/x".*"\.\."/)
  })

  it('an empty path segment assets//a.png', async () => {
    await assertRefused(readBundle(craft([{ name: 'assets//a.png', data: Buffer.from('a') }])), 'refused', /"assets\/\/a\.png".*empty path segment/)
  })

  it('a "." segment assets/./a.png', async () => {
    await assertRefused(readBundle(craft([{ name: 'assets/./a.png', data: Buffer.from('a') }])), 'refused', /"assets\/\.\/a\.png".*"\."/)
  })

  it('a name outside the layout: evil.sh', async () => {
    await assertRefused(readBundle(craft([{ name: 'evil.sh', data: Buffer.from('rm -rf /') }])), 'refused', /"evil\.sh".*outside the bundle layout/)
  })

  it('a slide below a subfolder: slides/sub/x.json', async () => {
    await assertRefused(readBundle(craft([{ name: 'slides/sub/x.json', data: Buffer.from('{}') }])), 'refused', /"slides\/sub\/x\.json".*outside the bundle layout/)
  })

  it('duplicate names', async () => {
    const data = Buffer.from('{"id":"s2"}')
    await assertRefused(readBundle(craft([{ name: 'slides/s2.json', data }, { name: 'slides/s2.json', data }])), 'refused', /"slides\/s2\.json".*more than once/)
  })

  it('a case duplicate: slides/A.json and slides/a.json', async () => {
    await assertRefused(
      readBundle(craft([{ name: 'slides/A.json', data: Buffer.from('{"id":"A"}') }, { name: 'slides/a.json', data: Buffer.from('{"id":"a"}') }])),
      'refused',
      /"slides\/a\.json".*"slides\/A\.json".*letter case/,
    )
  })
})

describe('readBundle refuses unsafe entries', () => {
  it('a symlink entry', async () => {
    const target = Buffer.from('../../../../etc/passwd')
    await assertRefused(
      readBundle(craft([{ name: 'assets/link.png', data: target, method: 0, externalAttributes: unixAttributes(S_IFLNK | 0o777) }])),
      'refused',
      /"assets\/link\.png".*symbolic link/,
    )
  })

  it('an encrypted entry', async () => {
    await assertRefused(readBundle(craft([{ name: 'assets/secret.bin', data: Buffer.from('x'), flags: 1 }])), 'refused', /"assets\/secret\.bin" is refused: it is encrypted/)
  })

  it('a compression method other than store and deflate', async () => {
    await assertRefused(
      readBundle(craft([{ name: 'assets/b.bz2', data: Buffer.from('x'), method: 0, methodField: 12 }])),
      'refused',
      /"assets\/b\.bz2".*compression method 12/,
    )
  })

  it('an entry that inflates beyond its declared size', async () => {
    await assertRefused(readBundle(craft([{ name: 'assets/liar.bin', data: Buffer.alloc(5000, 1), declaredSize: 100 }])), 'refused', /liar\.bin|too many bytes/)
  })

  it('a corrupt zip, with the reader message', async () => {
    await assertRefused(readBundle(Buffer.from('this is not a zip file at all, not even close')), 'refused', /not a readable zip: .*end of central directory/i)
  })
})

describe('readBundle refuses caps', () => {
  it('an oversize entry (maxEntryBytes 1000, a 2000-byte entry)', async () => {
    const bundle = craft([{ name: 'assets/big.bin', data: randomBytes(2000) }])
    await assertRefused(readBundle(bundle, { maxEntryBytes: 1000 }), 'payload_too_large', /"assets\/big\.bin" is 2000 bytes.*1000/)
    await readBundle(bundle, { maxEntryBytes: 3000 }) // the same bundle passes under a larger cap
  })

  it('too many entries', async () => {
    const bundle = craft([{ name: 'assets/a', data: Buffer.from('a') }, { name: 'assets/b', data: Buffer.from('b') }])
    await assertRefused(readBundle(bundle, { maxEntries: 4 }), 'payload_too_large', /5 entries; the cap is 4/)
    await readBundle(bundle, { maxEntries: 5 })
  })

  it('more total bytes than maxTotalBytes', async () => {
    const bundle = craft([{ name: 'assets/a', data: randomBytes(600) }, { name: 'assets/b', data: randomBytes(600) }])
    await assertRefused(readBundle(bundle, { maxTotalBytes: 1000 }), 'payload_too_large', /declares more than 1000 bytes/)
    await readBundle(bundle, { maxTotalBytes: 2000 })
  })

  it('a zip bomb by ratio (2 MiB of zeros deflated), with the default limits and a low override', async () => {
    const zeros = Buffer.alloc(2 * 1024 * 1024)
    const bundle = craft([{ name: 'assets/zeros.bin', data: zeros }])
    await assertRefused(readBundle(bundle), 'payload_too_large', /"assets\/zeros\.bin" expands \d+:1.*200:1/)
    assert.equal(BUNDLE_LIMITS.maxRatio, 200)

    // Random bytes compress barely at all: a 2 MiB random entry passes the default bound but not a bound of 0.5.
    const noise = craft([{ name: 'assets/noise.bin', data: randomBytes(2 * 1024 * 1024) }])
    await readBundle(noise)
    await assertRefused(readBundle(noise, { maxRatio: 0.5 }), 'payload_too_large', /"assets\/noise\.bin" expands/)
  })
})

describe('readBundle refuses manifest defects', () => {
  it('a wrong sha256 digest', async () => {
    const bundle = craft([{ name: 'assets/a.png', data: Buffer.from('real') }], { listed: { 'assets/a.png': sha256(Buffer.from('fake')) } })
    await assertRefused(readBundle(bundle), 'refused', /"assets\/a\.png".*sha256/)
  })

  it('a file present but not in the manifest', async () => {
    const bundle = craft([{ name: 'assets/stowaway.png', data: Buffer.from('x') }], { unlisted: ['assets/stowaway.png'] })
    await assertRefused(readBundle(bundle), 'refused', /"assets\/stowaway\.png".*not listed/)
  })

  it('a manifest listing a missing file', async () => {
    const bundle = craft([], { listed: { 'slides/ghost.json': sha256(Buffer.from('{}')) } })
    await assertRefused(readBundle(bundle), 'refused', /"slides\/ghost\.json".*not in the zip/)
  })

  it('a bundleVersion 2 manifest, naming the supported version', async () => {
    await assertRefused(readBundle(craft([], { manifest: { bundleVersion: 2 } })), 'refused', /bundleVersion 2.*bundleVersion 1/)
  })

  it('a missing or unparsable manifest, a bad deckId, a bad revision', async () => {
    const noManifest = writeZip([{ name: 'deck.json', data: Buffer.from('{}') }])
    await assertRefused(readBundle(noManifest), 'refused', /no manifest\.json/)
    const garbled = writeZip([{ name: 'manifest.json', data: Buffer.from('{"bundleVersion": 1,') }, { name: 'deck.json', data: Buffer.from('{}') }])
    await assertRefused(readBundle(garbled), 'refused', /not valid JSON/)
    await assertRefused(readBundle(craft([], { manifest: { deckId: '../Evil' } })), 'refused', /deckId/)
    await assertRefused(readBundle(craft([], { manifest: { revision: 1.5 } })), 'refused', /revision/)
    await assertRefused(readBundle(craft([], { manifest: { revision: -1 } })), 'refused', /revision/)
  })
})

describe('readBundle refuses what the first attack runs got through', () => {
  it('many entries each just under the per-entry threshold that expand past the ratio together', async () => {
    const almostMiB = Buffer.alloc(1024 * 1024 - 1)
    const entries = Array.from({ length: 8 }, (_, i) => ({ name: `assets/part-${i}.bin`, data: almostMiB }))
    await assertRefused(readBundle(craft(entries)), 'payload_too_large', /expands more than 200:1 in all/)
  })

  it('git files and hidden files in any segment, and names past the file system limits', async () => {
    for (const name of ['assets/.git/config', 'assets/deep/.git/HEAD', 'assets/.gitattributes', 'assets/.gitignore', 'assets/.Git/config']) {
      await assertRefused(readBundle(craft([{ name, data: Buffer.from('[core]') }])), 'refused', /git's own files/)
    }
    await assertRefused(readBundle(craft([{ name: 'assets/.hidden', data: Buffer.from('x') }])), 'refused', /hidden files/)
    await assertRefused(readBundle(craft([{ name: `assets/${'n'.repeat(256)}.png`, data: Buffer.from('x') }])), 'refused', /longer than 255 bytes/)
    await assertRefused(readBundle(craft([{ name: 'assets/a:b.png', data: Buffer.from('x') }])), 'refused', /character file systems refuse/)
    await assertRefused(readBundle(craft([{ name: 'slides/not an id.json', data: Buffer.from('{}') }])), 'refused', /outside the bundle layout/)
    await assertRefused(readBundle(craft([{ name: 'assets/a/b/c/d/e.png', data: Buffer.from('x') }])), 'refused', /outside the bundle layout/)
  })

  it('a wrong digest while streaming, before the next entry is extracted, leaving no folder behind', async () => {
    const { extractBundle } = await import('../../../src/store/bundle.js')
    const parent = mkdtempSync(join(tmpdir(), 'studio-extract-'))
    try {
      const bundle = craft([{ name: 'assets/a.png', data: Buffer.from('real') }, { name: 'assets/b.png', data: Buffer.from('second') }], { listed: { 'assets/a.png': sha256(Buffer.from('fake')) } })
      await assertRefused(extractBundle(bundle, parent), 'refused', /"assets\/a\.png".*sha256/)
      assert.deepEqual(readdirSync(parent), [])
    } finally {
      rmSync(parent, { recursive: true, force: true })
    }
  })
})
