/**
 * The share dialog of a deck: people and their roles, invitations, general access, links, the five
 * settings, pending access requests and the transfer of ownership. Every write sends the access
 * record's revision it read; a 409 reloads the record and says what changed in between, and the
 * person decides again (nothing is re-sent on their behalf: access is not merged silently).
 */
import { useEffect, useState } from 'preact/hooks'
import { ApiError, call } from './api.js'
import { Dialog, endOfDay, RoleSelect, ROLE_WORDS, ShownOnce, type Role } from './dialog.js'
import { changesBetween, day, SETTINGS, whoKey, whoText, type AccessRecord, type AccessRequest, type ShareAnswer, type ShareLink } from './access-changes.js'
import { SignInForm } from './signin.js'
import { messageOf, store } from './store.js'

export function ShareDialog({ deckId, onClose }: { deckId: string; onClose: () => void }) {
  const [answer, setAnswer] = useState<ShareAnswer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [notice, setNotice] = useState<{ text: string; details: string[] } | null>(null)
  const [shown, setShown] = useState<{ label: string; url: string } | null>(null)
  const [reauth, setReauth] = useState(false)

  const reload = async (): Promise<ShareAnswer | null> => {
    try {
      const next = await call<ShareAnswer>('share.get', { id: deckId })
      setAnswer(next)
      return next
    } catch (e) {
      setError(messageOf(e))
      return null
    }
  }
  useEffect(() => {
    void reload()
  }, [deckId])

  /** One access write with the revision the dialog read; see the module comment for 409. */
  const write = async <T,>(label: string, action: string, input: Record<string, unknown>): Promise<T | undefined> => {
    if (!answer) return undefined
    const before = answer.access
    setError(null)
    setNotice(null)
    try {
      const result = await call<T>(action, { id: deckId, ...input, baseRevision: before.revision })
      await reload()
      return result
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        const fresh = await reload()
        const details = fresh ? changesBetween(before, fresh.access) : []
        setNotice({ text: `${label}: not done. Sharing changed while the dialog was open (revision ${before.revision} → ${fresh?.access.revision ?? '?'}); look again and retry.`, details })
      } else if (e instanceof ApiError && e.code === 'reauth_required') {
        setReauth(true)
      } else {
        setError(`${label}: ${messageOf(e)}`)
        if (e instanceof ApiError && e.status === 403) void reload()
      }
      return undefined
    }
  }

  const record = answer?.access
  const canShare = answer?.capabilities.includes('share') ?? false
  const owner = answer?.role === 'owner'
  return (
    <Dialog title="Share" onClose={onClose} wide>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {notice ? (
        <div class="notice" role="alert">
          <p>{notice.text}</p>
          {notice.details.length ? (
            <ul>
              {notice.details.map((d, i) => (
                <li key={i}>{d}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {shown ? <ShownOnce label={shown.label} value={shown.url} what="this link" /> : null}
      {!record || !answer ? (
        <p>Reading who has access…</p>
      ) : (
        <div class="share">
          <People record={record} canShare={canShare} write={write} />
          {canShare ? <Invite write={write} /> : <p class="meta">You are a {answer.role} of this deck: only its owner and editors change who has access.</p>}
          <General record={record} canShare={canShare} write={write} onUrl={(url) => setShown({ label: 'Link for anyone with the link', url })} />
          {canShare ? <Links record={record} write={write} onUrl={(label, url) => setShown({ label, url })} /> : null}
          {canShare ? <Requests record={record} write={write} /> : null}
          {record.settings ? <Settings record={record} owner={owner} write={write} /> : null}
          {reauth ? (
            <section class="reauth" aria-labelledby="reauth-head">
              <h3 id="reauth-head">Confirm it is you</h3>
              <SignInForm next={location.pathname} intro="Sharing settings need a sign-in within the last 10 minutes. Sign in again, then change the setting." />
            </section>
          ) : null}
          <Ownership record={record} owner={owner} write={write} />
          {canShare ? (
            <p>
              <button type="button" class="danger" onClick={() => void write('Stop sharing', 'share.stop', {})}>
                Stop sharing (restricted, every link revoked)
              </button>
            </p>
          ) : null}
        </div>
      )}
    </Dialog>
  )
}

type Write = <T>(label: string, action: string, input: Record<string, unknown>) => Promise<T | undefined>

function People({ record, canShare, write }: { record: AccessRecord; canShare: boolean; write: Write }) {
  return (
    <section aria-labelledby="share-people">
      <h3 id="share-people">People with access</h3>
      <ul class="people">
        <li>
          <span class="who">{record.ownerLabel ?? record.owner}</span>
          <span class="role-tag">Owner</span>
        </li>
        {(record.grants ?? []).map((g) => {
          const name = whoText(g.who)
          return (
            <li key={whoKey(g.who)} data-who={name}>
              <span class="who">{g.label ?? name}</span>
              {canShare ? (
                <>
                  <RoleSelect label={`Role of ${name}`} value={g.role} onChange={(role) => void write(`Change ${name}'s role`, 'share.setRole', { who: g.who, role })} />
                  <label class="expiry">
                    Until
                    <input
                      type="date"
                      aria-label={`Access of ${name} ends on`}
                      value={day(g.expiresAt)}
                      onChange={(e) => {
                        const value = (e.target as HTMLInputElement).value
                        void write(`Set when ${name}'s access ends`, 'share.setExpiry', { who: g.who, expiresAt: endOfDay(value) ?? null })
                      }}
                    />
                  </label>
                  <button type="button" class="danger" aria-label={`Remove ${name}`} onClick={() => void write(`Remove ${name}`, 'share.remove', { who: g.who })}>
                    Remove
                  </button>
                </>
              ) : (
                <span class="role-tag">{ROLE_WORDS[g.role]}</span>
              )}
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function Invite({ write }: { write: Write }) {
  const [emails, setEmails] = useState('')
  const [role, setRole] = useState<Role>('commenter')
  const [message, setMessage] = useState('')
  const [notify, setNotify] = useState(true)
  const [done, setDone] = useState<string | null>(null)
  const submit = async (event: Event) => {
    event.preventDefault()
    const list = [...new Set(emails.split(/[\s,;]+/).filter(Boolean))]
    if (!list.length) return
    const result = await write<{ results: { email: string; outcome: string }[]; link: string }>('Invite', 'share.invite', { emails: list, role, ...(message.trim() ? { message: message.trim() } : {}), notify })
    if (result) {
      setEmails('')
      setMessage('')
      const mailed = result.results.filter((r) => r.outcome !== 'no-mail').length
      setDone(`${list.length} invited as ${role}. ${notify ? `${mailed} invitation${mailed === 1 ? '' : 's'} mailed; ` : ''}the deck's address to hand on: ${result.link}`)
    }
  }
  return (
    <section aria-labelledby="share-invite">
      <h3 id="share-invite">Invite people</h3>
      <form class="invite" onSubmit={submit}>
        <label for="invite-emails">Email addresses</label>
        <input id="invite-emails" type="text" inputMode="email" placeholder="ana@example.com, bo@example.com" value={emails} onInput={(e) => setEmails((e.target as HTMLInputElement).value)} />
        <div class="row">
          <RoleSelect label="Role to invite as" value={role} onChange={setRole} />
          <label>
            <input type="checkbox" checked={notify} onChange={(e) => setNotify((e.target as HTMLInputElement).checked)} /> Send an invitation mail
          </label>
        </div>
        <label for="invite-message">Message (optional)</label>
        <textarea id="invite-message" rows={2} maxLength={2000} value={message} onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)} />
        <button type="submit" class="primary">
          Invite
        </button>
        {done ? <p role="status">{done}</p> : null}
      </form>
    </section>
  )
}

function General({ record, canShare, write, onUrl }: { record: AccessRecord; canShare: boolean; write: Write; onUrl: (url: string) => void }) {
  const set = async (mode: 'restricted' | 'link', role: Role) => {
    const result = await write<{ url?: string }>('Change general access', 'share.setGeneralAccess', mode === 'link' ? { mode, role } : { mode })
    if (result?.url) onUrl(result.url)
  }
  const { mode, role } = record.general
  return (
    <section aria-labelledby="share-general">
      <h3 id="share-general">General access</h3>
      <div class="row">
        <select aria-label="General access" value={mode} disabled={!canShare} onChange={(e) => void set((e.target as HTMLSelectElement).value as 'restricted' | 'link', role)}>
          <option value="restricted">Restricted: only people with access</option>
          <option value="link">Anyone with the link</option>
        </select>
        {mode === 'link' ? <RoleSelect label="Role of anyone with the link" value={role} disabled={!canShare} onChange={(r) => void set('link', r)} /> : null}
      </div>
    </section>
  )
}

function Links({ record, write, onUrl }: { record: AccessRecord; write: Write; onUrl: (label: string, url: string) => void }) {
  const [role, setRole] = useState<Role>('viewer')
  const [label, setLabel] = useState('')
  const [expires, setExpires] = useState('')
  const create = async (event: Event) => {
    event.preventDefault()
    const result = await write<{ url: string; link: ShareLink }>('Create a link', 'share.createLink', { role, ...(label.trim() ? { label: label.trim() } : {}), ...(expires ? { expiresAt: endOfDay(expires) } : {}) })
    if (result) {
      setLabel('')
      setExpires('')
      onUrl(`New ${result.link.role} link${result.link.label ? ` “${result.link.label}”` : ''}`, result.url)
    }
  }
  const links = record.links ?? []
  return (
    <section aria-labelledby="share-links">
      <h3 id="share-links">Links</h3>
      <form class="row" onSubmit={create}>
        <RoleSelect label="Role the new link gives" value={role} onChange={setRole} />
        <input aria-label="Label of the new link" placeholder="Label (optional)" maxLength={80} value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />
        <input type="date" aria-label="The new link ends on (optional)" value={expires} onInput={(e) => setExpires((e.target as HTMLInputElement).value)} />
        <button type="submit">Create link</button>
      </form>
      {links.length ? (
        <ul class="links">
          {links.map((l) => {
            const name = l.label ? `link “${l.label}”` : `${l.role} link of ${day(l.createdAt)}`
            return (
              <li key={l.id} data-link={l.id}>
                <span class="who">{l.label ?? 'Unlabelled link'}</span>
                <span class="meta">
                  made {day(l.createdAt)}
                  {l.expiresAt ? `, ends ${day(l.expiresAt)}` : ''}
                </span>
                <RoleSelect label={`Role of ${name}`} value={l.role} onChange={(r) => void write(`Change the ${name}`, 'share.setLinkRole', { linkId: l.id, role: r })} />
                <button
                  type="button"
                  aria-label={`Rotate ${name}`}
                  title="A new address; the old one stops working"
                  onClick={async () => {
                    const result = await write<{ url: string }>(`Rotate the ${name}`, 'share.rotateLink', { linkId: l.id })
                    if (result) onUrl(`New address of the ${name}`, result.url)
                  }}
                >
                  Rotate
                </button>
                <button type="button" class="danger" aria-label={`Revoke ${name}`} onClick={() => void write(`Revoke the ${name}`, 'share.revokeLink', { linkId: l.id })}>
                  Revoke
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <p class="meta">No live links.</p>
      )}
      {record.deadLinks?.length ? (
        <details>
          <summary>Dead links of the last 30 days ({record.deadLinks.length})</summary>
          <ul class="links dead">
            {record.deadLinks.map((l) => (
              <li key={l.id}>
                {l.label ?? 'Unlabelled link'} ({l.role}), ended {day(l.endedAt)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  )
}

function Requests({ record, write }: { record: AccessRecord; write: Write }) {
  const requests = record.requests ?? []
  const [roles, setRoles] = useState<Record<string, Role>>({})
  if (!requests.length) return null
  return (
    <section aria-labelledby="share-requests">
      <h3 id="share-requests">Access requests</h3>
      <ul class="requests">
        {requests.map((q) => {
          const who = q.email ? `${q.requester} (${q.email})` : q.requester
          const role = roles[q.id] ?? q.role
          return (
            <li key={q.id} data-request={q.id}>
              <p>
                <strong>{who}</strong> asks to be {q.role === 'editor' ? 'an' : 'a'} {q.role}
                {q.message ? `: “${q.message}”` : '.'}
              </p>
              <div class="row">
                <RoleSelect label={`Role to give ${q.requester}`} value={role} onChange={(r) => setRoles({ ...roles, [q.id]: r })} />
                <button type="button" class="primary" onClick={() => void write(`Approve ${q.requester}`, 'share.respond', { requestId: q.id, grant: role, notify: true })}>
                  Approve
                </button>
                <button type="button" onClick={() => void write(`Decline ${q.requester}`, 'share.respond', { requestId: q.id, grant: null, notify: true })}>
                  Decline
                </button>
              </div>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function Settings({ record, owner, write }: { record: AccessRecord; owner: boolean; write: Write }) {
  const settings = record.settings!
  return (
    <section aria-labelledby="share-settings">
      <h3 id="share-settings">Settings</h3>
      {owner ? null : <p class="meta">Only the owner changes these.</p>}
      <ul class="settings">
        {SETTINGS.map(([name, words]) => (
          <li key={name}>
            <label>
              <input type="checkbox" role="switch" checked={settings[name]} disabled={!owner} onChange={(e) => void write(`“${words}”`, 'share.settings', { [name]: (e.target as HTMLInputElement).checked })} /> {words}
            </label>
          </li>
        ))}
      </ul>
    </section>
  )
}

function Ownership({ record, owner, write }: { record: AccessRecord; owner: boolean; write: Write }) {
  const [email, setEmail] = useState('')
  const me = store.state.account
  const offeredToMe = Boolean(record.pendingOwner && me && (record.pendingOwner === me.principal.id || record.pendingOwner === me.label))
  if (!owner && !offeredToMe) return null
  return (
    <section aria-labelledby="share-owner">
      <h3 id="share-owner">Ownership</h3>
      {offeredToMe ? (
        <div class="row">
          <p>{record.owner} offers you this deck.</p>
          <button type="button" class="primary" onClick={() => void write('Accept the deck', 'share.acceptOwnership', {})}>
            Accept
          </button>
          <button type="button" onClick={() => void write('Decline the deck', 'share.declineOwnership', {})}>
            Decline
          </button>
        </div>
      ) : record.pendingOwner ? (
        <div class="row">
          <p>Offered to {record.pendingOwner}; it stays yours until they accept.</p>
          <button type="button" onClick={() => void write('Cancel the offer', 'share.cancelOwnership', {})}>
            Cancel the offer
          </button>
        </div>
      ) : (
        <form
          class="row"
          onSubmit={async (event) => {
            event.preventDefault()
            if (!email.trim()) return
            if (await write('Transfer ownership', 'share.transferOwnership', { to: { email: email.trim() } })) setEmail('')
          }}
        >
          <input type="email" aria-label="Email of the new owner" placeholder="new.owner@example.com" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />
          <button type="submit">Transfer ownership</button>
        </form>
      )}
    </section>
  )
}
