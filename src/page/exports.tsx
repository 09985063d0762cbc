/** The File menu: export (PPTX, PDF, plain text) and the standalone HTML build, each one read action; links to download what they wrote. */
import { useState } from 'preact/hooks'
import { fileUrl } from './api.js'
import { Menu } from './editor.js'
import { store } from './store.js'

interface Written {
  label: string
  files: string[]
}

export function ExportMenu() {
  const [written, setWritten] = useState<Written | null>(null)
  const [running, setRunning] = useState<string | null>(null)
  const run = async (label: string, action: string, input: Record<string, unknown>, files: (r: any) => string[]) => {
    setRunning(label)
    const result = await store.perform({ label, read: true, plan: () => ({ action, input, revision: false }) })
    setRunning(null)
    if (result) {
      const list = files(result)
      setWritten({ label, files: list })
      store.say(`${label}: done (${list.length} ${list.length === 1 ? 'file' : 'files'}).`)
    }
  }
  const deck = store.deckId ?? 'deck'
  const appearance = store.state.appearance
  return (
    <Menu label="File">
      {(close) => (
        <div class="file-menu">
          <p class="menu-head">Export</p>
          <button type="button" disabled={Boolean(running)} onClick={() => void run('Export PPTX', 'export.run', { format: 'pptx', theme: [appearance] }, (r) => r.files)}>
            PowerPoint (.pptx)
          </button>
          <button type="button" disabled={Boolean(running)} onClick={() => void run('Export editable PPTX', 'export.run', { format: 'pptx', mode: 'native', theme: [appearance] }, (r) => r.files)}>
            PowerPoint, editable text
          </button>
          <button type="button" disabled={Boolean(running)} onClick={() => void run('Export PDF', 'export.run', { format: 'pdf', theme: [appearance] }, (r) => r.files)}>
            PDF
          </button>
          <p class="menu-head">Build</p>
          <button type="button" disabled={Boolean(running)} onClick={() => void run('Build HTML', 'build.run', { out: `.studio/build/${deck}.html` }, (r) => [r.file])}>
            Single-file HTML deck
          </button>
          {running ? <p role="status">{running}…</p> : null}
          {written ? (
            <div class="written" role="status">
              <p>{written.label}:</p>
              <ul>
                {written.files.map((f) => (
                  <li key={f}>
                    <a href={fileUrl(f)} download>
                      Download {f.split('/').pop()}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <button type="button" class="quiet" onClick={close}>
            Close
          </button>
        </div>
      )}
    </Menu>
  )
}
