import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { scriptFacesOf, withSchemeScriptFaces, withScriptFaces } from '../../../src/export/pptx-scripts.js'

const run = (text: string) => `<a:r><a:rPr lang="en-US" sz="2400"><a:latin typeface="Inter"/><a:ea typeface="Inter"/><a:cs typeface="Inter"/></a:rPr><a:t>${text}</a:t></a:r>`

describe('script faces in native PPTX', () => {
  it('names the Noto face a run\'s script needs as its East Asian or complex-script typeface, and leaves Latin runs alone', () => {
    const used = new Set<string>()
    const xml = [run('Revenue'), run('你好'), run('こんにちは世界'), run('안녕'), run('مرحبا'), run('שלום &amp; 中文')].join('')
    const out = withScriptFaces(xml, used)
    const faces = [...out.matchAll(/<a:r>.*?<a:ea typeface="([^"]*)"\/><a:cs typeface="([^"]*)"\/>/g)].map((m) => `${m[1]}|${m[2]}`)
    assert.deepEqual(faces, ['Inter|Inter', 'Noto Sans SC|Inter', 'Noto Sans JP|Inter', 'Noto Sans KR|Inter', 'Inter|Noto Sans Arabic', 'Noto Sans SC|Noto Sans Hebrew'])
    assert.ok(out.includes('<a:latin typeface="Inter"/>'))
    assert.deepEqual([...used].sort(), ['Noto Sans Arabic', 'Noto Sans Hebrew', 'Noto Sans JP', 'Noto Sans KR', 'Noto Sans SC'])
    assert.deepEqual(scriptFacesOf('Plain Latin, Ελληνικά, Кириллица'), { ea: undefined, cs: undefined })
  })

  it("names the same faces in the theme's font scheme for text a person adds", () => {
    const scheme = '<a:minorFont><a:latin typeface="Inter"/><a:font script="Jpan" typeface="游ゴシック"/><a:font script="Hang" typeface="맑은 고딕"/><a:font script="Hans" typeface="等线"/><a:font script="Arab" typeface="Arial"/><a:font script="Hebr" typeface="Arial"/><a:font script="Thai" typeface="Tahoma"/></a:minorFont>'
    assert.equal(
      withSchemeScriptFaces(scheme),
      '<a:minorFont><a:latin typeface="Inter"/><a:font script="Jpan" typeface="Noto Sans JP"/><a:font script="Hang" typeface="Noto Sans KR"/><a:font script="Hans" typeface="Noto Sans SC"/><a:font script="Arab" typeface="Noto Sans Arabic"/><a:font script="Hebr" typeface="Noto Sans Hebrew"/><a:font script="Thai" typeface="Tahoma"/></a:minorFont>',
    )
  })
})
