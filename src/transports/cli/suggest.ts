/**
 * "Did you mean": the commands and topics nearest to a command line oclif found no command for,
 * written as users type them (`deck rename`, not `deck:rename`). Loaded only when a command is not
 * found (src/transports/cli/not-found.ts), never on a command's own path.
 */

/** Edit distance (insertions, deletions, substitutions, and a swap of two neighbours counts one). */
export function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1)
    }
  }
  return rows[a.length][b.length]
}

/**
 * The nearest of `ids` (oclif ids, `deck:rename`, and topic names) to the leading words typed,
 * best first: each id is held against as many typed words as it has, so arguments after a mistyped
 * command do not count (a topic stands for the commands longer than what was typed). Only ids
 * within about a third of their length are offered.
 */
export function nearestCommands(words: readonly string[], ids: Iterable<string>, limit = 3): string[] {
  const scored: [number, number, string][] = []
  for (const id of new Set(ids)) {
    const parts = id.split(':')
    if (words.length < parts.length) continue
    const shown = parts.join(' ')
    const d = distance(words.slice(0, parts.length).join(' '), shown)
    if (d > 0 && d <= Math.max(2, Math.floor(shown.length / 3))) scored.push([d, -parts.length, shown])
  }
  // Nearest first; at the same distance the command that covers more of the typed words.
  return scored.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2].localeCompare(y[2])).slice(0, limit).map(([, , shown]) => shown)
}
