/**
 * The test files in the order `npm test` hands them to Node's runner: longest first (test/durations.json,
 * seconds per file from a whole run), files the table does not know before all of them. With two files
 * at a time, the longest-first order keeps one long file from running alone at the end. Refresh the table
 * from a run's TAP output: `node scripts/test-order.mjs --record <tap.log>`.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..')
const table = join(root, 'test', 'durations.json')

function testFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) out.push(...testFiles(path))
    else if (name.endsWith('.test.ts')) out.push(relative(root, path))
  }
  return out
}

/** The names of a file's top-level describe / it / test calls (its top-level lines in TAP). */
function topLevelNames(file) {
  const names = []
  // A contract part's file is one call, contract('<part>'): its suite is named by the part's groups (test/contract/contract.ts PARTS).
  const part = /^contract\('([a-z]+)'\)/m.exec(readFileSync(join(root, file), 'utf8'))?.[1]
  if (part) {
    const groups = /PARTS[^=]*=\s*\{([\s\S]*?)\n\}/.exec(readFileSync(join(root, 'test', 'contract', 'contract.ts'), 'utf8'))?.[1] ?? ''
    const list = new RegExp(`^\\s*${part}: \\[([^\\]]*)\\]`, 'm').exec(groups)?.[1]
    if (list) names.push(`one contract for the command line, MCP and HTTP: ${[...list.matchAll(/'([^']+)'/g)].map((g) => g[1]).join(', ')}`)
  }
  for (const m of readFileSync(join(root, file), 'utf8').matchAll(/^(?:describe|it|test)\((['"`])((?:\\.|(?!\1).)*)\1/gm)) names.push(m[2].replace(/\\(.)/g, '$1'))
  return names
}

if (process.argv[2] === '--record') {
  // TAP's top-level lines are each file's top-level suites and tests, by name; their durations follow.
  const byName = new Map()
  for (const file of testFiles(join(root, 'test'))) for (const name of topLevelNames(file)) byName.set(name, file)
  const lines = readFileSync(process.argv[3], 'utf8').split('\n')
  const seconds = {}
  for (let i = 0; i < lines.length; i++) {
    const m = /^(?:not )?ok \d+ - (.*)$/.exec(lines[i])
    if (!m) continue
    const duration = /duration_ms: ([\d.]+)/.exec(lines.slice(i + 1, i + 8).join('\n'))
    const file = byName.get(m[1]) ?? [...byName].find(([name]) => name.includes('${') && m[1].startsWith(name.slice(0, name.indexOf('${'))))?.[1]
    if (!file || !duration) {
      if (!file) console.error(`no file for: ${m[1]}`)
      continue
    }
    seconds[file] = Math.round(((seconds[file] ?? 0) + Number(duration[1]) / 1000) * 10) / 10
  }
  const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1]))
  writeFileSync(table, `${JSON.stringify(sorted, null, 1)}\n`)
  console.error(`recorded ${Object.keys(sorted).length} files`)
} else {
  let known = {}
  try {
    known = JSON.parse(readFileSync(table, 'utf8'))
  } catch {
    // no table: the files in name order
  }
  const files = testFiles(join(root, 'test')).sort()
  const weight = (f) => (f in known ? known[f] : Infinity)
  console.log(files.sort((a, b) => weight(b) - weight(a) || a.localeCompare(b)).join('\n'))
}
