/**
 * Writes fonts/fallback-metrics.json: the fallback faces' advances (src/layout/metrics.ts
 * buildFallbackTable). Run after changing a fallback face or its package version:
 * `npm run fonts:metrics`. test/unit/layout/metrics.unit.test.ts holds the file to the fonts.
 */
import { writeFileSync } from 'node:fs'
import { buildFallbackTable, fallbackMetricsFile } from '../src/layout/metrics.js'

const table = buildFallbackTable()
writeFileSync(fallbackMetricsFile(), JSON.stringify(table) + '\n')
for (const [name, metrics] of Object.entries(table)) console.log(`${name}: ${metrics.runs.length / 3} runs; differing at ${Object.entries(metrics.deltas).map(([w, d]) => `${w}: ${d.length / 2}`).join(", ")}`)
