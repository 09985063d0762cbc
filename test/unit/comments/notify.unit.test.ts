/**
 * Notifications (src/comments/notify.ts, src/comments/inbox.ts) with the clock injected, never waited:
 * a burst of 50 comments in one thread gives each recipient one inbox record and at most one mail per
 * 15-minute window, and no mail to whoever read it within the window; the actor never hears of their
 * own write; levels filter; mail is plain text naming the deck, the place, the excerpt and the link.
 * Mail is captured (STUDIO_MAIL=capture) into a temp workspace's .studio/mail.jsonl.
 */
import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { COALESCE_MS, inboxOf } from '../../../src/comments/inbox.js'
import { notifyThread, sendDueMail } from '../../../src/comments/notify.js'
import type { StoredComment, Thread, Who } from '../../../src/comments/store.js'
import type { DeckDoc } from '../../../src/model/deck.js'
import { Workspace } from '../../../src/store/workspace.js'

const T0 = Date.parse('2026-03-02T09:00:00.000Z')
const MIN = 60_000
const DECK = 'quarterly-review'
const DOC = { manifest: { id: DECK, title: 'Quarterly review', sections: [] }, slides: { 'numbers-2': {} } } as unknown as DeckDoc

let dirs: string[] = []
let savedMail: string | undefined
before(() => {
  savedMail = process.env.STUDIO_MAIL
  process.env.STUDIO_MAIL = 'capture'
})
after(() => {
  if (savedMail === undefined) delete process.env.STUDIO_MAIL
  else process.env.STUDIO_MAIL = savedMail
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  dirs = []
})

function tempWorkspace(): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'studio-notify-'))
  dirs.push(dir)
  return new Workspace(dir, dir)
}

function mails(ws: Workspace): { to: string; subject: string; text: string; at: string }[] {
  try {
    return readFileSync(join(ws.stateDir, 'mail.jsonl'), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l))
  } catch {
    return []
  }
}

const comment = (id: number, author: string, text: string, mentions?: Who[]): StoredComment => ({
  id: `c${id}`,
  author,
  at: new Date(T0).toISOString(),
  body: { text, ...(mentions ? { mentions } : {}) },
  reactions: Object.create(null),
})

/** Ana opens a thread on block b1 mentioning Ben and dee@example.com. */
function opened(): Thread {
  return {
    id: 't-burst0001',
    anchor: { kind: 'block', slideId: 'numbers-2', blockId: 'b1' },
    status: 'attached',
    madeAt: 1,
    comments: [comment(1, 'Ana', '{@0} and {@1}: is half right?', [{ principal: 'Ben' }, { email: 'dee@example.com' }])],
    assignee: null,
    state: 'open',
    done: false,
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
    revision: 1,
  }
}

/** Notifies a thread's change at `at`, as the comment write would after its commit. */
async function change(ws: Workspace, before: Thread | undefined, next: Thread, actor: string, at: number) {
  return notifyThread(ws, { deckId: DECK, doc: DOC, before, after: next, actor: { author: actor } }, () => at)
}

/** 50 comments in one thread: Ana opens it, then Cy and Ana reply in turn, 10 s apart (all in one window). */
async function burst(ws: Workspace, start = T0): Promise<Thread> {
  let thread = opened()
  await change(ws, undefined, thread, 'Ana', start)
  for (let i = 2; i <= 50; i++) {
    const author = i % 2 === 0 ? 'Cy' : 'Ana'
    const next = { ...thread, comments: [...thread.comments, comment(i, author, `Reply ${i}`)] }
    await change(ws, thread, next, author, start + (i - 1) * 10_000)
    thread = next
  }
  return thread
}

const recordsOf = async (ws: Workspace, who: string) => (await inboxOf(ws).list([who], { limit: 500 })).records

describe('a burst of 50 comments in one thread', () => {
  it('gives each recipient one record, coalescing every event of the window, and never the actor their own', async () => {
    const ws = tempWorkspace()
    await burst(ws)
    const [ben, dee, ana, cy] = await Promise.all(['principal:Ben', 'email:dee@example.com', 'principal:Ana', 'principal:Cy'].map((who) => recordsOf(ws, who)))
    for (const records of [ben, dee, ana, cy]) assert.equal(records.length, 1)
    // Ben and Dee: mentioned by the first comment, then 49 replies.
    assert.deepEqual([ben[0].count, ben[0].kinds, ben[0].actors], [50, ['mention', 'reply'], ['Ana', 'Cy']])
    assert.equal(dee[0].count, 50)
    // Ana hears of Cy's 25 replies only, Cy of Ana's 24 replies after Cy joined.
    assert.deepEqual([ana[0].count, ana[0].actors, ana[0].kinds], [25, ['Cy'], ['reply']])
    assert.deepEqual([cy[0].count, cy[0].actors], [24, ['Ana']])
    assert.equal(ben[0].last.excerpt, 'Reply 50')
    assert.equal(ben[0].firstAt, new Date(T0).toISOString())
  })

  it('mails each recipient with an address once, when the window ends, and never twice', async () => {
    const ws = tempWorkspace()
    await inboxOf(ws).learnAddress('principal:Ben', 'ben@example.com')
    await burst(ws)
    assert.equal(await sendDueMail(ws, () => T0 + COALESCE_MS - 1), 0, 'nothing is due inside the window')
    assert.deepEqual(mails(ws), [])
    assert.equal(await sendDueMail(ws, () => T0 + COALESCE_MS), 2)
    assert.equal(await sendDueMail(ws, () => T0 + 3 * COALESCE_MS), 0, 'a record is mailed once')
    const sent = mails(ws)
    // Ana and Cy have no known address: their records wait in the inbox, unmailed.
    assert.deepEqual(sent.map((m) => m.to).sort(), ['ben@example.com', 'dee@example.com'])
    const ben = sent.find((m) => m.to === 'ben@example.com')!
    assert.match(ben.subject, /^Quarterly review: Ana, Cy mentioned you \(50 updates\)$/)
    assert.match(ben.text, /on "Quarterly review", slide numbers-2, block b1\./)
    assert.match(ben.text, /Cy: Reply 50/)
    assert.match(ben.text, /Open the thread: http:\/\/localhost:4321\/d\/quarterly-review\/numbers-2\?thread=t-burst0001/)
    assert.doesNotMatch(ben.text, /<|\{@/, 'plain text, mentions written out')
  })

  it('sends nothing to a recipient who read the record within the window', async () => {
    const ws = tempWorkspace()
    const inbox = inboxOf(ws)
    await inbox.learnAddress('principal:Ben', 'ben@example.com')
    await burst(ws)
    const [record] = await recordsOf(ws, 'principal:Ben')
    assert.equal(await inbox.markRead(['principal:Ben'], [record.id]), 0)
    assert.equal(await sendDueMail(ws, () => T0 + COALESCE_MS + MIN), 1)
    assert.deepEqual(mails(ws).map((m) => m.to), ['dee@example.com'])
  })

  it('starts a new record after the window and mails it in its own window', async () => {
    const ws = tempWorkspace()
    const thread = await burst(ws)
    assert.equal(await sendDueMail(ws, () => T0 + COALESCE_MS), 1)
    const later = T0 + COALESCE_MS + 2 * MIN
    const next = { ...thread, comments: [...thread.comments, comment(51, 'Cy', 'One more, later')] }
    await change(ws, thread, next, 'Cy', later)
    const dee = await recordsOf(ws, 'email:dee@example.com')
    assert.deepEqual(dee.map((r) => [r.count, r.read]), [[1, false], [50, false]])
    // The due check runs on every notify: at `later` the first record was already mailed, the second is not due.
    assert.equal(mails(ws).length, 1)
    assert.equal(await sendDueMail(ws, () => later + COALESCE_MS), 1)
    assert.equal(mails(ws).length, 2)
  })
})

describe('who hears of what', () => {
  it('notifies the new assignee, the comment authors of a resolution, and the author of a reacted comment', async () => {
    const ws = tempWorkspace()
    const thread = opened()
    await change(ws, undefined, thread, 'Ana', T0)
    const replied = { ...thread, comments: [...thread.comments, comment(2, 'Cy', 'Source?')] }
    await change(ws, thread, replied, 'Cy', T0 + MIN)
    const assigned = { ...replied, assignee: { principal: 'agent:review-7' } }
    await change(ws, replied, assigned, 'Ana', T0 + 2 * MIN)
    const reacted = { ...assigned, comments: assigned.comments.map((c) => (c.id === 'c2' ? { ...c, reactions: Object.assign(Object.create(null), { heart: ['Ben'] }) } : c)) }
    await change(ws, assigned, reacted, 'Ben', T0 + 3 * MIN)
    const resolved = { ...reacted, state: 'resolved' as const }
    await change(ws, reacted, resolved, 'Ben', T0 + 4 * MIN)
    const kinds = async (who: string) => (await recordsOf(ws, who)).flatMap((r) => r.kinds).sort()
    assert.deepEqual(await kinds('principal:agent:review-7'), ['assignment'])
    assert.deepEqual(await kinds('principal:Cy'), ['reaction', 'resolution'])
    assert.deepEqual(await kinds('principal:Ana'), ['reply', 'resolution'])
    // Ben was mentioned, then reacted and resolved himself: only the mention and Cy's reply reach him.
    assert.deepEqual(await kinds('principal:Ben'), ['mention', 'reply'])
  })

  it('filters by the recipient\'s level on the deck: forYou drops resolutions and reactions, none everything', async () => {
    const ws = tempWorkspace()
    const inbox = inboxOf(ws)
    await inbox.setSettings('principal:Ben', DECK, { level: 'forYou' })
    await inbox.setSettings('email:dee@example.com', DECK, { level: 'none' })
    const thread = opened()
    await change(ws, undefined, thread, 'Ana', T0)
    const resolved = { ...thread, state: 'resolved' as const, comments: [...thread.comments, comment(2, 'Ben', 'Done')] }
    // A resolution of a thread Ben wrote in, by Ana, 20 minutes later: a new window.
    await change(ws, resolved, { ...resolved, state: 'open' }, 'Ana', T0 + 20 * MIN)
    assert.deepEqual((await recordsOf(ws, 'principal:Ben')).map((r) => r.kinds), [['mention']])
    assert.deepEqual(await recordsOf(ws, 'email:dee@example.com'), [])
  })

  it('keeps keys from input as keys: settings of a deck named __proto__ round-trip through the file', async () => {
    const ws = tempWorkspace()
    await inboxOf(ws).setSettings('principal:Ben', '__proto__', { email: false })
    await inboxOf(ws).setDeckSettings('__proto__', { activityForCommenters: true })
    assert.deepEqual(await inboxOf(ws).settings('principal:Ben', '__proto__'), { level: 'all', email: false })
    assert.deepEqual(await inboxOf(ws).settings('principal:Ben', 'constructor'), { level: 'all', email: true })
    assert.deepEqual(await inboxOf(ws).deckSettings('__proto__'), { activityForCommenters: true })
    assert.deepEqual(await inboxOf(ws).deckSettings('toString'), { activityForCommenters: false })
  })
})
