/**
 * A minimal zip writer for tests: local file headers, central directory and end record, each entry
 * stored or deflated with node:zlib. It writes whatever it is told (names with `..`, symlink
 * attributes, duplicates, lying sizes, odd methods), which archiver refuses to do, so tests can craft
 * the malicious bundles the reader must refuse. Test-only: no zip64, no data descriptors.
 */
import { crc32, deflateRawSync } from 'node:zlib'

export interface RawZipEntry {
  /** The name exactly as written into both headers (UTF-8, flag bit 11 set). */
  name: string
  data?: Buffer
  /** How the data is actually encoded: 0 store, 8 deflate. Default 8. */
  method?: 0 | 8
  /** The method number written into the headers, when it should differ from `method`. */
  methodField?: number
  /** Extra general purpose bits OR-ed into the flags (bit 0: encrypted). */
  flags?: number
  /** External file attributes; default a regular file, mode 0644 (0o100644 << 16). */
  externalAttributes?: number
  /** The uncompressed size written into the headers, when it should lie. */
  declaredSize?: number
}

/** Unix file type bits for external attributes. */
export const S_IFREG = 0o100000
export const S_IFLNK = 0o120000

export function unixAttributes(mode: number): number {
  return (mode << 16) >>> 0
}

const UTF8_NAMES = 0x0800
const VERSION_MADE_BY_UNIX = (3 << 8) | 20
const VERSION_NEEDED = 20
// 1980-01-01 00:00:00 in DOS format.
const DOS_TIME = 0
const DOS_DATE = (0 << 9) | (1 << 5) | 1

export function writeZip(entries: RawZipEntry[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const data = entry.data ?? Buffer.alloc(0)
    const method = entry.method ?? 8
    const body = method === 8 ? deflateRawSync(data, { level: 9 }) : data
    const name = Buffer.from(entry.name, 'utf8')
    const flags = UTF8_NAMES | (entry.flags ?? 0)
    const methodField = entry.methodField ?? method
    const crc = crc32(data) >>> 0
    const size = entry.declaredSize ?? data.length
    const attributes = (entry.externalAttributes ?? unixAttributes(S_IFREG | 0o644)) >>> 0

    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(VERSION_NEEDED, 4)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(methodField, 8)
    local.writeUInt16LE(DOS_TIME, 10)
    local.writeUInt16LE(DOS_DATE, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    locals.push(local, name, body)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(VERSION_MADE_BY_UNIX, 4)
    central.writeUInt16LE(VERSION_NEEDED, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(methodField, 10)
    central.writeUInt16LE(DOS_TIME, 12)
    central.writeUInt16LE(DOS_DATE, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt16LE(0, 30) // extra field length
    central.writeUInt16LE(0, 32) // comment length
    central.writeUInt16LE(0, 34) // disk number
    central.writeUInt16LE(0, 36) // internal attributes
    central.writeUInt32LE(attributes, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)

    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(0, 4) // this disk
  end.writeUInt16LE(0, 6) // disk with the directory
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  end.writeUInt16LE(0, 20) // comment length
  return Buffer.concat([...locals, directory, end])
}
