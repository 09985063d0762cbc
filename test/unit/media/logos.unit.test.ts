/**
 * Logo search ranking (src/media/logos.ts): prefix, then word start, then substring; brands before
 * community before cloud icons; exact first, then prominence, then the shorter title. Held on a small
 * index written here (every rule alone) and on the built-in catalogue with named queries.
 */
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { IndexMark, LogoIndex } from '../../../src/media/logo-index.js'
import { builtInIndex, chooseVariant, loaded, recolour, searchLogos } from '../../../src/media/logos.js'

const mark = (s: string, t: string, extra: Partial<IndexMark> = {}): IndexMark => ({ s, t, c: 0, v: { default: 'S' }, r: 3, n: 0, p: 1, ...extra })
const small = (marks: IndexMark[]) => loaded({ v: 1, builtAt: '2026-01-01T00:00:00.000Z', from: 'packages', sources: {}, sentences: [''], marks } as LogoIndex)
const slugs = (index: ReturnType<typeof small>, q: string, options = {}) => searchLogos(index, q, options).map((r) => r.mark.s)

describe('logo search ranking on a small index', () => {
  const index = small([
    mark('stubhub', 'StubHub'), // "hub" inside a word, after a capital: a word start
    mark('hubspot', 'HubSpot'), // "hub" as a prefix
    mark('chubb', 'Chubb'), // "hub" inside a word: a substring
    mark('github', 'GitHub', { p: 4 }),
    mark('hubcommunity', 'Hub Community', { c: 1 }), // a prefix too, but community
    mark('hub', 'Hub', { c: 1 }), // exact, community
    mark('awshub', 'AWS Hub', { c: 2, k: ['cloud'] }),
    mark('acme', 'Acme', { a: ['Hubble Corp'] }), // an alias starting with the query
    mark('zeta', 'Zeta', { k: ['hubs and spokes'] }), // a category starting with the query
  ])

  it('puts prefixes first, then word starts, then substrings', () => {
    const ranked = searchLogos(index, 'hub')
    assert.deepEqual(ranked.map((r) => r.tier), [...ranked.map((r) => r.tier)].sort())
    const tierOf = (s: string) => ranked.find((r) => r.mark.s === s)?.tier
    assert.deepEqual([tierOf('hubspot'), tierOf('acme'), tierOf('zeta'), tierOf('github'), tierOf('stubhub'), tierOf('chubb')], [0, 0, 0, 1, 1, 2])
  })

  it('puts brands before community within a tier, even before an exact community match', () => {
    const order = slugs(index, 'hub')
    assert.ok(order.indexOf('hubspot') < order.indexOf('hub'))
    assert.ok(order.indexOf('hub') < order.indexOf('hubcommunity'), 'the exact match leads its collection')
    assert.ok(order.indexOf('hub') < order.indexOf('github'), 'a community prefix still beats a brand word start')
  })

  it('leaves cloud service icons to collection all', () => {
    assert.equal(slugs(index, 'hub').includes('awshub'), false)
    assert.equal(slugs(index, 'hub', { collection: 'all' }).includes('awshub'), true)
    assert.equal(slugs(index, 'cloud', { collection: 'all' })[0], 'awshub')
  })

  it('ranks prominence, then the shorter title, among equals', () => {
    const ties = small([mark('gitea', 'Gitea'), mark('gitlab', 'GitLab', { p: 4 }), mark('github', 'GitHub', { p: 4 }), mark('gitbook', 'GitBook')])
    assert.deepEqual(slugs(ties, 'git'), ['github', 'gitlab', 'gitea', 'gitbook'])
  })

  it('matches the slug with the query\'s letters alone, folds accents and case, and honours the limit', () => {
    const index2 = small([mark('googlecloud', 'Google Cloud'), mark('saopaulo', 'São Paulo'), mark('microsoft', 'Microsoft')])
    assert.deepEqual(slugs(index2, 'google-cloud'), ['googlecloud'])
    assert.deepEqual(slugs(index2, 'SAO'), ['saopaulo'])
    assert.deepEqual(slugs(index2, '   '), [])
    assert.equal(searchLogos(index, 'h', { limit: 2 }).length, 2)
  })

  it('filters by kind: wordmark lists marks having any wordmark', () => {
    const kinds = small([mark('a1', 'Alpha', { v: { default: 'S' } }), mark('a2', 'Alpha Two', { v: { default: '@x', wordmarkDark: '@y' } }), mark('a3', 'Alpha Three', { v: { wordmark: '@z' } })])
    assert.deepEqual(slugs(kinds, 'alpha', { kind: 'wordmark' }), ['a2', 'a3'])
    assert.deepEqual(slugs(kinds, 'alpha', { kind: 'symbol' }), ['a1', 'a2'])
  })
})

describe('logo search on the built-in catalogue (named queries)', async () => {
  const index = await builtInIndex()

  it('"git": Git (exact), then GitHub and GitLab (in both catalogues, with wordmarks and guidelines)', () => {
    assert.deepEqual(slugs(index, 'git').slice(0, 3), ['git', 'github', 'gitlab'])
  })

  it('"goo": Google first, every answer a prefix match', () => {
    const ranked = searchLogos(index, 'goo')
    assert.equal(ranked[0].mark.s, 'google')
    assert.equal(ranked.length, 20)
    assert.ok(ranked.every((r) => r.tier === 0))
  })

  it('"pay": prefixes (PayPal), then word starts (Google Pay), then substrings (Alipay)', () => {
    const ranked = searchLogos(index, 'pay', { limit: 100 })
    const tierOf = (s: string) => ranked.find((r) => r.mark.s === s)?.tier
    assert.deepEqual([tierOf('paypal'), tierOf('googlepay'), tierOf('applepay'), tierOf('alipay')], [0, 1, 1, 2])
    assert.deepEqual(ranked.map((r) => r.tier), [...ranked.map((r) => r.tier)].sort())
  })

  it('"itla": GitLab as a substring', () => {
    const ranked = searchLogos(index, 'itla')
    assert.equal(ranked.find((r) => r.mark.s === 'gitlab')?.tier, 2)
  })

  it('"apache": the brands (Simple Icons) before the community marks (SVG Logos alone) among the prefixes', () => {
    const ranked = searchLogos(index, 'apache', { limit: 100 })
    const collections = ranked.filter((r) => r.tier === 0).map((r) => r.mark.c)
    assert.ok(collections.includes(0) && collections.includes(1))
    assert.deepEqual(collections, [...collections].sort())
  })

  it('"aws": cloud service icons only in collection all', () => {
    assert.deepEqual(slugs(index, 'aws'), ['aws'])
    const all = searchLogos(index, 'aws lambda', { collection: 'all' })
    assert.equal(all[0].mark.s, 'awslambda')
  })

  it('records whether the default reads on paper and on ink', () => {
    const github = index.bySlug.get('github')!
    assert.equal(github.r, 1, 'the black Octocat reads on paper, not on ink')
    const javascript = index.bySlug.get('javascript')!
    assert.equal(javascript.r & 1, 0, "JavaScript's yellow does not read on paper")
  })
})

describe('the appearance rule', () => {
  const black = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#000"/></svg>'
  const white = recolour(black, '#ffffff')
  const svgs: Record<string, string> = { default: black, dark: white, mono: black }
  it('keeps the default where it reads, takes the dark variant on a dark ground, else mono', async () => {
    assert.deepEqual(await chooseVariant(mark('a', 'A', { v: { default: '@a', dark: '@b', mono: 'M' } }), '#ffffff', (v) => svgs[v]), { variant: 'default', reads: true })
    assert.deepEqual(await chooseVariant(mark('a', 'A', { v: { default: '@a', dark: '@b', mono: 'M' } }), '#111111', (v) => svgs[v]), { variant: 'dark', reads: true })
    assert.deepEqual(await chooseVariant(mark('a', 'A', { v: { default: '@a', mono: 'M' } }), '#111111', (v) => svgs[v]), { variant: 'mono', reads: true })
    assert.deepEqual(await chooseVariant(mark('a', 'A', { v: { default: '@a' } }), '#111111', (v) => svgs[v]), { variant: 'default', reads: false })
  })
  it('recolours every paint of a mono drawing, keeping none', () => {
    const out = recolour('<svg xmlns="http://www.w3.org/2000/svg"><path fill="#f00" stroke="none" style="fill: blue"/></svg>', '#123456')
    assert.equal(out, '<svg xmlns="http://www.w3.org/2000/svg" fill="#123456"><path fill="#123456" stroke="none" style="fill:#123456"/></svg>')
  })
})
