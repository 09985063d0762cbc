/**
 * Opening a workspace's files without following links: the one helper every read or write a request
 * makes outside a commit goes through (page asset routes, render, export, build, shader, sheet and
 * diff outputs, bundle extraction, deck asset reads).
 *
 * A cloned repository can carry a symbolic link anywhere: `decks/x/assets/logo.png -> /etc/passwd`,
 * `decks/x/slides -> /`, `.studio/render -> ~/.ssh`, or a dangling link that a write would create its
 * target through. So at open time every component below the workspace root is `lstat`ed and a link
 * (dangling or not) is refused, and the final component is opened with `O_NOFOLLOW`, so a link put
 * there after the check still fails the open instead of being followed. A write goes to a temporary
 * file created exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`) beside the target, then is renamed over
 * it: a rename replaces a link, never writes through it.
 *
 * A path outside the workspace is only ever named by a person on the command line for their own
 * machine (`--out /tmp/x`); it is opened as named, without these checks. A refusal is `refused` (400)
 * and names the workspace-relative path only.
 *
 * `refuseLinks` in transaction.ts is the same rule for the files a commit writes.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs'
import { open, readdir, rename, unlink } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { fail } from '../core/errors.js'

const NOFOLLOW = constants.O_NOFOLLOW ?? 0

const realRoots = new Map<string, string>()
function realRootOf(root: string): string {
  let real = realRoots.get(root)
  if (real === undefined) {
    try {
      real = realpathSync(root)
    } catch {
      real = root
    }
    realRoots.set(root, real)
  }
  return real
}

interface Placed {
  /** The folder the components are below (the root as given, or its real path). */
  base: string
  parts: string[]
}

/** Where `abs` lies below `root`: its components, or undefined when it is outside the workspace. */
function place(root: string, abs: string): Placed | undefined {
  const target = resolve(abs)
  for (const base of [resolve(root), realRootOf(root)]) {
    const rel = relative(base, target)
    if (rel === '') return { base, parts: [] }
    if (!rel.startsWith('..') && !isAbsolute(rel)) return { base, parts: rel.split(sep) }
  }
  return undefined
}

function refuse(parts: string[], upTo: number): never {
  const shown = parts.slice(0, upTo + 1).join('/')
  fail('refused', `${shown} is a symbolic link; studio does not follow links inside the workspace (a cloned repository can carry one that points anywhere on the machine). Replace it with the real file or folder.`)
}

/** What the file system would have answered (EISDIR, ENOTDIR), naming the workspace-relative path only. */
function fsError(code: string, parts: string[], upTo: number): never {
  const error = new Error(`${code}: ${parts.slice(0, upTo + 1).join('/')}`) as NodeJS.ErrnoException
  error.code = code
  throw error
}

/**
 * `lstat`s every component of `abs` below `root` and refuses a symbolic link (dangling or not);
 * answers the final component's lstat, undefined when a component is missing or one on the way is
 * not a folder. Outside the workspace: the `stat` of the path, followed as named.
 */
export function lstatInside(root: string, abs: string): Stats | undefined {
  const placed = place(root, abs)
  if (!placed) return statSync(abs, { throwIfNoEntry: false })
  let current = placed.base
  let stat: Stats | undefined
  for (let i = 0; i < placed.parts.length; i++) {
    current = join(current, placed.parts[i])
    stat = lstatSync(current, { throwIfNoEntry: false })
    if (!stat) return undefined
    if (stat.isSymbolicLink()) refuse(placed.parts, i)
    if (i < placed.parts.length - 1 && !stat.isDirectory()) return undefined
  }
  return stat ?? lstatSync(placed.base)
}

/** Whether `abs` is a regular file inside the workspace reached through no link (refused when one is on the way). */
export function isFileInside(root: string, abs: string): boolean {
  return Boolean(lstatInside(root, abs)?.isFile())
}

/** Whether `abs` exists (file or folder) reached through no link (refused when one is on the way). */
export function existsInside(root: string, abs: string): boolean {
  return lstatInside(root, abs) !== undefined
}

function notFound(abs: string): never {
  const error = new Error(`ENOENT: no such file, open '${basename(abs)}'`) as NodeJS.ErrnoException
  error.code = 'ENOENT'
  throw error
}

/** The open's answer to a link that appeared at the final component after the check (ELOOP with O_NOFOLLOW). */
function openRefused(error: unknown, root: string, abs: string): never {
  const code = (error as NodeJS.ErrnoException).code
  const placed = place(root, abs)
  if (placed && (code === 'ELOOP' || code === 'EMLINK')) refuse(placed.parts, placed.parts.length - 1)
  throw error
}

/**
 * Reads a regular file of the workspace without following any link below the root. A missing file
 * throws ENOENT, a path that is not a regular file EISDIR (naming no server folder); a link is `refused`.
 */
export function readInsideSync(root: string, abs: string): Buffer {
  const placed = place(root, abs)
  if (!placed) return readFileSync(abs)
  const stat = lstatInside(root, abs)
  if (!stat) notFound(abs)
  if (!stat.isFile()) fsError('EISDIR', placed.parts, placed.parts.length - 1)
  let fd: number
  try {
    fd = openSync(abs, constants.O_RDONLY | NOFOLLOW)
  } catch (error) {
    openRefused(error, root, abs)
  }
  try {
    if (!fstatSync(fd).isFile()) fsError('EISDIR', placed.parts, placed.parts.length - 1)
    return readFileSync(fd)
  } finally {
    closeSync(fd)
  }
}

/** `readInsideSync`, asynchronously. */
export async function readInside(root: string, abs: string): Promise<Buffer> {
  const placed = place(root, abs)
  if (!placed) return readFileSync(abs)
  const stat = lstatInside(root, abs)
  if (!stat) notFound(abs)
  if (!stat.isFile()) fsError('EISDIR', placed.parts, placed.parts.length - 1)
  let handle
  try {
    handle = await open(abs, constants.O_RDONLY | NOFOLLOW)
  } catch (error) {
    openRefused(error, root, abs)
  }
  try {
    if (!(await handle.stat()).isFile()) fsError('EISDIR', placed.parts, placed.parts.length - 1)
    return await handle.readFile()
  } finally {
    await handle.close()
  }
}

/**
 * Makes the folder `abs` (and its missing parents) one component at a time, refusing a link or a
 * file on the way: a dangling link is never turned into a folder somewhere else.
 */
export function mkdirInside(root: string, abs: string): void {
  const placed = place(root, abs)
  if (!placed) {
    mkdirSync(abs, { recursive: true })
    return
  }
  let current = placed.base
  for (let i = 0; i < placed.parts.length; i++) {
    current = join(current, placed.parts[i])
    let stat = lstatSync(current, { throwIfNoEntry: false })
    if (!stat) {
      try {
        mkdirSync(current)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      stat = lstatSync(current)
    }
    if (stat.isSymbolicLink()) refuse(placed.parts, i)
    if (!stat.isDirectory()) fsError('ENOTDIR', placed.parts, i)
  }
}

/**
 * Writes a file of the workspace atomically (temporary file, fsync, rename) without following a
 * link: its folders are made with `mkdirInside`, a link at the target is refused, and the temporary
 * file is created exclusively with O_NOFOLLOW.
 */
export async function writeInside(root: string, abs: string, data: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const placed = place(root, abs)
  const dir = dirname(abs)
  mkdirInside(root, dir)
  if (placed) {
    const stat = lstatSync(abs, { throwIfNoEntry: false })
    if (stat?.isSymbolicLink()) refuse(placed.parts, placed.parts.length - 1)
    // An output named by the caller (`--out dist`) that is a folder: their input names no file to write.
    if (stat && !stat.isFile()) fail('invalid_input', `${placed.parts.join('/')} is a ${stat.isDirectory() ? 'folder' : 'special file'}: name a file to write.`)
  }
  const temp = join(dir, `.${basename(abs)}.${randomBytes(6).toString('hex')}.tmp`)
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, options.mode ?? 0o644)
  try {
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, abs)
  } catch (error) {
    await unlink(temp).catch(() => undefined)
    throw error
  }
}

/**
 * Refuses a link anywhere in the folder `abs` (the folder itself and every component down to it
 * included): what is packed or copied out of a folder is read through no link.
 */
export async function refuseLinksUnder(root: string, abs: string): Promise<void> {
  const stat = lstatInside(root, abs)
  const placed = place(root, abs)
  if (!stat?.isDirectory() || !placed) return
  for (const entry of await readdir(abs, { recursive: true, withFileTypes: true })) {
    if (!entry.isSymbolicLink()) continue
    const parts = [...placed.parts, ...relative(abs, join(entry.parentPath ?? entry.path, entry.name)).split(sep)]
    refuse(parts, parts.length - 1)
  }
}

/**
 * The workspace a deck asset file belongs to: a deck keeps its pictures at
 * `<workspace>/decks/<id>/assets/<name>` (templates at `<workspace>/templates/<slug>/assets/<name>`).
 */
const assetRoot = (file: string) => dirname(dirname(dirname(dirname(file))))

/**
 * Reads a file of a deck's `assets/` folder, as `assetFiles` and `sourceFileOf` name them: no
 * component from `decks/` down (the folder, the deck, `assets/`, the file) may be a link. Messages
 * name `decks/<id>/assets/<name>`.
 */
export function readAssetSync(file: string): Buffer {
  return readInsideSync(assetRoot(file), file)
}

/** Whether a deck asset file exists, reached through no link (refused when one is on the way). */
export function assetExistsSync(file: string): boolean {
  return existsInside(assetRoot(file), file)
}
