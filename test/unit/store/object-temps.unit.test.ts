import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { dropObjectTemps, objectTempName } from '../../../src/store/object-temps.js'

describe('dropObjectTemps', () => {
  it("removes studio's temp objects whose writer is gone or that are an hour old, and keeps a live writer's and git's own", () => {
    const gitDir = mkdtempSync(join(tmpdir(), 'studio-objects-'))
    try {
      const folder = join(gitDir, 'objects', 'ab')
      mkdirSync(folder, { recursive: true })
      // A pid that was a process a moment ago and is no longer one.
      const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout
      const live = objectTempName()
      assert.match(live, new RegExp(`^tmp_obj_studio-${process.pid}-[0-9a-f]+$`))
      const names = { live, dead: `tmp_obj_studio-${dead}-00aa11bb22cc`, old: `tmp_obj_studio-${process.pid}-0123456789ab`, git: 'tmp_obj_Xy12Zq', object: '0123456789abcdef0123456789abcdef012345' }
      for (const name of Object.values(names)) writeFileSync(join(folder, name), 'x')
      const hours = new Date(Date.now() - 61 * 60 * 1000)
      utimesSync(join(folder, names.old), hours, hours)
      utimesSync(join(folder, names.git), hours, hours)
      assert.equal(dropObjectTemps(gitDir), 2)
      assert.deepEqual(readdirSync(folder).sort(), [names.object, names.live, names.git].sort())
    } finally {
      rmSync(gitDir, { recursive: true, force: true })
    }
  })
})
