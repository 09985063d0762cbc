/**
 * asset.capture's browser sends no UDP (issue 21, item 6): a captured page that opens an
 * RTCPeerConnection with a STUN server (a UDP socket of this test on 127.0.0.1) gets no datagram
 * out, from any candidate. The page is served on loopback, allowed by the guard's test switch.
 */
import assert from 'node:assert/strict'
import { createSocket, type Socket } from 'node:dgram'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { studio, workspaceWithDeck } from '../helpers/studio.js'

/** Tries every way a page has to send a STUN request; `load` waits for the slow picture, so ICE has time to gather. */
function page(udpPort: number, port: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>WebRTC</title></head><body>
<p id="state">starting</p>
<img src="http://127.0.0.1:${port}/slow.png" width="1" height="1" alt="">
<script>
  const state = document.getElementById('state')
  const servers = [{ urls: ['stun:127.0.0.1:${udpPort}', 'turn:127.0.0.1:${udpPort}?transport=udp'], username: 'u', credential: 'p' }]
  try {
    for (const Peer of [window.RTCPeerConnection, window.webkitRTCPeerConnection]) {
      if (!Peer) continue
      const pc = new Peer({ iceServers: servers, iceCandidatePoolSize: 2 })
      pc.createDataChannel('probe')
      pc.onicecandidate = (e) => { if (e.candidate) state.textContent += ' ' + e.candidate.candidate }
      pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch((e) => (state.textContent += ' ' + e))
    }
    state.textContent += ' offered'
  } catch (error) {
    state.textContent = 'no peer connection: ' + error
  }
  // Tells the test the script ran (an ordinary request, fetched through the capture's route).
  new Image().src = '/ran.png'
</script>
</body></html>`
}

describe('asset.capture and WebRTC', () => {
  let ws: Awaited<ReturnType<typeof workspaceWithDeck>>
  let origin: Server
  let udp: Socket
  const datagrams: string[] = []
  const seen: string[] = []
  let port = 0
  before(async () => {
    ws = await workspaceWithDeck('Quiet')
    udp = createSocket('udp4')
    udp.on('message', (message, from) => datagrams.push(`${from.address}:${from.port} ${message.length} bytes`))
    await new Promise<void>((r) => udp.bind(0, '127.0.0.1', () => r()))
    const udpPort = udp.address().port
    origin = createServer((req, res) => {
      seen.push(req.url ?? '')
      if (req.url === '/rtc.html') res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(udpPort, port))
      else if (req.url === '/slow.png') setTimeout(() => res.writeHead(404).end(), 2000)
      else res.writeHead(404).end()
    })
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', () => r()))
    port = (origin.address() as AddressInfo).port
  })
  after(() => {
    origin?.closeAllConnections()
    origin?.close()
    udp?.close()
    ws?.cleanup()
  })

  it('sends no datagram to a STUN or TURN server a captured page names', async () => {
    const r = await studio(ws.dir, ['asset', 'capture', `http://127.0.0.1:${port}/rtc.html`, '--theme', 'both', '--id', 'rtc', '--json'], { env: { STUDIO_FETCH_ALLOW_PRIVATE: '1' } })
    assert.equal(r.code, 0, r.stdout + r.stderr)
    await new Promise((resolve) => setTimeout(resolve, 500))
    assert.ok(seen.includes('/ran.png'), `the page's script ran: ${seen.join(' ')}`)
    assert.deepEqual(datagrams, [])
  })
})
