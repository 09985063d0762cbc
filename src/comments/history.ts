/** Comment threads as a commit holds them (reviews read the head of a branch, not the working tree). */
import { filesAt } from '../history/history.js'
import { withReader } from '../history/index.js'
import type { Workspace } from '../store/workspace.js'
import { parseThread, type Thread } from './store.js'

/** The threads of `deckId` at `commit`, by id (files that are not threads skipped). */
export async function threadsAt(ws: Workspace, commit: string, deckId: string): Promise<Thread[]> {
  return withReader(ws, async (reader) => {
    const files = await filesAt(reader, commit, ws.gitPath(`decks/${deckId}/comments`))
    const names = [...files.keys()].filter((rel) => /^t-[a-z0-9]+\.json$/.test(rel))
    const objects = await reader.read(names.map((rel) => files.get(rel)!))
    const threads: Thread[] = []
    names.forEach((rel, i) => {
      const object = objects[i]
      const thread = object && object.type === 'blob' ? parseThread(object.data.toString('utf8'), rel.slice(0, -5)) : null
      if (thread) threads.push(thread)
    })
    return threads
  })
}
