/** The administrator's screen of kill switches (admin.flag): each switch read, and turned on or off. */
import { useEffect, useState } from 'preact/hooks'
import { call } from './api.js'
import { Dialog } from './dialog.js'
import { messageOf } from './store.js'

export const FLAGS = ['realtime', 'presence', 'comments', 'invites', 'email', 'exports', 'uploads', 'renderThumbs', 'materialize', 'htmlBlocks', 'signup', 'readOnly', 'maintenance'] as const
/** What turning each switch on does: a checked switch stops what it names. */
const FLAG_WORDS: Record<(typeof FLAGS)[number], string> = {
  realtime: 'Stop live updates (the room)',
  presence: 'Stop presence (who is here, pointers)',
  comments: 'Stop comments',
  invites: 'Stop invitations',
  email: 'Stop outgoing mail',
  exports: 'Stop exports',
  uploads: 'Stop uploads of asset bytes',
  renderThumbs: 'Stop rendered thumbnails',
  materialize: 'Stop materializing decks',
  htmlBlocks: 'Stop HTML blocks',
  signup: 'Stop new principals (sign-up)',
  readOnly: 'Read-only: refuse every write',
  maintenance: 'Maintenance: every write and page call answers 503',
}
interface Flag {
  name: string
  on: boolean
  changedAt: string | null
  changedBy: string | null
}

export function AdminSwitches({ onClose }: { onClose: () => void }) {
  const [flags, setFlags] = useState<Map<string, Flag>>(new Map())
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    void Promise.all(FLAGS.map((name) => call<Flag>('admin.flag', { name }).catch(() => null))).then((all) => setFlags(new Map(all.filter((f): f is Flag => Boolean(f)).map((f) => [f.name, f]))))
  }, [])
  const flip = async (name: string, on: boolean) => {
    setError(null)
    try {
      const flag = await call<Flag>('admin.flag', { name, on })
      setFlags(new Map(flags).set(name, flag))
    } catch (e) {
      setError(`${FLAG_WORDS[name as keyof typeof FLAG_WORDS]}: ${messageOf(e)}`)
    }
  }
  return (
    <Dialog title="Kill switches" onClose={onClose}>
      <p class="meta">A switch turned on stops what it names, for every caller, on every instance within 5 seconds. Turn it off to allow it again.</p>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <ul class="settings">
        {FLAGS.map((name) => {
          const flag = flags.get(name)
          return (
            <li key={name} data-flag={name}>
              <label>
                <input type="checkbox" role="switch" checked={flag?.on ?? false} disabled={!flag} onChange={(e) => void flip(name, (e.target as HTMLInputElement).checked)} /> {FLAG_WORDS[name]}
              </label>
              {flag?.changedAt ? (
                <span class="meta">
                  {' '}
                  changed {flag.changedAt.slice(0, 16).replace('T', ' ')}
                  {flag.changedBy ? ` by ${flag.changedBy}` : ''}
                </span>
              ) : null}
            </li>
          )
        })}
      </ul>
    </Dialog>
  )
}
