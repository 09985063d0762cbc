import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { gitZoneOffset } from '../../../src/store/git-zone.js'

const shown = (minutes: number) => `${minutes < 0 ? '-' : '+'}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0')}${String(Math.abs(minutes) % 60).padStart(2, '0')}`

describe('gitZoneOffset', () => {
  it('reads TZ as the C library does (date +%z), for zone names and POSIX rules, every 3.5 hours over two years', () => {
    const zones = [
      'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'America/St_Johns', 'EST5EDT', ':Asia/Kolkata',
      'IST-5:30', '<+0530>-5:30', 'XST+3:15', '<-03>3', 'EST5EDT,M3.2.0,M11.1.0', 'EST5EDT4,M3.2.0/2,M11.1.0/2',
      'AEST-10AEDT,M10.1.0,M4.1.0/3', 'NZST-12NZDT,M9.5.0,M4.1.0/3', 'CET-1CEST,M3.5.0,M10.5.0/3',
      'ABC-3XYZ-4,J60,J300', 'ABC-3XYZ-4,59,300/-1', '<-03>3<-02>,M3.5.0/-2,M10.5.0/-1',
    ]
    const times: number[] = []
    for (let t = Date.UTC(2023, 0, 1); t < Date.UTC(2025, 0, 1); t += 12_600_000) times.push(t)
    const kept = process.env.TZ
    try {
      for (const TZ of zones) {
        const libc = execFileSync('date', ['-f', '-', '+%z'], { env: { TZ }, input: times.map((t) => `@${t / 1000}`).join('\n'), encoding: 'utf8' }).trim().split('\n')
        process.env.TZ = TZ
        const ours = times.map((t) => shown(gitZoneOffset(new Date(t))))
        const wrong = times.flatMap((t, i) => (ours[i] !== libc[i] ? [`${new Date(t).toISOString()} ${ours[i]} (libc ${libc[i]})`] : []))
        assert.deepEqual(wrong.slice(0, 3), [], `TZ=${TZ}`)
      }
    } finally {
      if (kept === undefined) delete process.env.TZ
      else process.env.TZ = kept
    }
  })

  it('is the offset Node reads when TZ is unset or empty', () => {
    const kept = process.env.TZ
    try {
      for (const TZ of [undefined, '']) {
        if (TZ === undefined) delete process.env.TZ
        else process.env.TZ = TZ
        const now = new Date()
        assert.equal(gitZoneOffset(now) + 0, -now.getTimezoneOffset() + 0)
      }
    } finally {
      if (kept === undefined) delete process.env.TZ
      else process.env.TZ = kept
    }
  })
})
