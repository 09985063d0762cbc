/**
 * History: every revision of the deck (from version.diff), the prose of each (diff.run between it and
 * the one before), the named versions with restore (version.restore: a new revision, undoable), and
 * save a version (version.save).
 */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { messageOf, store } from './store.js'

interface Mutation {
  revision: number
  action: string | null
  at: string
  author: string
}

export function History() {
  const { doc, historyStamp } = store.state
  const [mutations, setMutations] = useState<Mutation[] | null>(null)
  const [open, setOpen] = useState<number | null>(null)
  const [prose, setProse] = useState<Record<number, string[]>>({})
  const [note, setNote] = useState('')
  useEffect(() => {
    if (!doc) return
    call<{ byAuthor: { author: string; mutations: Omit<Mutation, 'author'>[] }[] }>('version.diff', { from: 0 }, store.deckId).then(
      (r) => setMutations(r.byAuthor.flatMap((g) => g.mutations.map((m) => ({ ...m, author: g.author }))).sort((a, b) => b.revision - a.revision)),
      (e) => store.say(messageOf(e), 'error'),
    )
  }, [historyStamp, store.deckId])
  if (!doc) return null
  const show = async (revision: number) => {
    setOpen(open === revision ? null : revision)
    if (prose[revision] || revision === 0) return
    try {
      const diff = await call<{ changes: string[] }>('diff.run', { from: revision - 1, to: revision }, store.deckId)
      setProse({ ...prose, [revision]: diff.changes.length ? diff.changes : ['No changes to slides (a setting or the version log).'] })
    } catch (error) {
      setProse({ ...prose, [revision]: [messageOf(error)] })
    }
  }
  const save = async (event: Event) => {
    event.preventDefault()
    if (!note.trim()) return
    const result = await store.perform({ label: 'Save version', noUndo: true, plan: () => ({ action: 'version.save', input: { note: note.trim() }, revision: false }) })
    if (result) {
      setNote('')
      store.say(`Saved version ${result.version.n}.`)
    }
  }
  const restore = (n: number) =>
    void store.perform({
      label: `Restore version ${n}`,
      plan: (d) => (d.versions.some((v) => v.n === n) ? { action: 'version.restore', input: { n } } : `version ${n} is gone.`),
      done: (r) => store.say(`Restored version ${n} as revision ${r.revision}.`, 'info', { details: r.changes }),
    })
  return (
    <div class="history">
      <h2>History</h2>
      <form class="save-version" onSubmit={save}>
        <label for="version-note">Save this revision as a version</label>
        <div class="row">
          <input id="version-note" value={note} onInput={(e) => setNote((e.target as HTMLInputElement).value)} placeholder="Sent to the board" />
          <button type="submit" disabled={!note.trim()}>
            Save
          </button>
        </div>
      </form>
      <h3>Versions</h3>
      {doc.versions.length ? (
        <ul class="versions">
          {[...doc.versions].reverse().map((v) => (
            <li key={v.n} data-version={v.n}>
              <div>
                <strong>
                  {v.n}. {v.note}
                </strong>
                <span class="meta">
                  revision {v.revision} · {v.author} · {new Date(v.at).toLocaleString()}
                </span>
              </div>
              <button type="button" onClick={() => restore(v.n)} aria-label={`Restore version ${v.n}: ${v.note}`}>
                Restore
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="meta">No saved versions yet.</p>
      )}
      <h3>Revisions</h3>
      {mutations === null ? (
        <p>Loading…</p>
      ) : mutations.length === 0 ? (
        <p class="meta">No changes since the deck was made.</p>
      ) : (
        <ol class="revisions">
          {mutations.map((m) => (
            <li key={m.revision} data-revision={m.revision}>
              <button type="button" aria-expanded={open === m.revision} onClick={() => void show(m.revision)}>
                <span class="rev">r{m.revision}</span> {m.action ?? 'change'} <span class="meta">· {m.author} · {new Date(m.at).toLocaleTimeString()}</span>
              </button>
              {open === m.revision ? (
                <ul class="prose">
                  {(prose[m.revision] ?? ['…']).map((line, i) => (
                    <li key={i}>{line}</li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </div>
  )
}
