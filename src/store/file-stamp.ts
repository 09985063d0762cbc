import { statSync } from 'node:fs'

/**
 * What a small state file's cached parse is keyed by: inode, size and modification time in
 * nanoseconds ('none' when the file is absent). A write through write-file-atomic renames a new file
 * into place, so its inode changes even within one clock tick.
 */
export function fileStamp(path: string): string {
  try {
    const st = statSync(path, { bigint: true })
    return `${st.ino}:${st.size}:${st.mtimeNs}`
  } catch {
    return 'none'
  }
}
