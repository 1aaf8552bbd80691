import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { buildConnector } from 'undici'
import { AddressGuard, RefusedAddress, type Resolve } from './address-guard.js'
import { Outbound } from './outbound.js'

/**
 * The SSRF guard, proven without a packet leaving the machine: the outbound client is given a trap instead of the
 * connector that opens sockets. A refused address must never reach the trap; an allowed one reaches it (with the
 * vetted address), and the trap refuses to connect, so even a guard that let everything through could not send
 * anything anywhere.
 */
const NAMES: Record<string, string[]> = {
  'intranet.example': ['10.0.0.5'],
  'metadata.example': ['169.254.169.254'],
  'rebind.example': ['93.184.216.34', '127.0.0.1'],
  'cgnat.example': ['100.64.1.2'],
  'v6private.example': ['fd00::1'],
  'public.example': ['93.184.216.34', '2606:4700:4700::1111']
}
const resolve: Resolve = async (name) => {
  const found = NAMES[name]
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' })
  return found
}

function trapped(allowPrivate: boolean) {
  const reached: { hostname: string; host?: string }[] = []
  const trap: buildConnector.connector = (options, callback) => {
    reached.push({ hostname: options.hostname, host: options.host })
    callback(new Error('trap: the test never opens a socket'), null)
  }
  const out = new Outbound({ guard: new AddressGuard(allowPrivate, resolve), timeoutMs: 2000, connectionsPerHost: 1, queueTimeoutMs: 2000, connect: trap })
  return { out, reached }
}

const REFUSED_URLS = [
  // loopback, in every spelling the URL parser turns into 127.0.0.1 or ::1
  'https://127.0.0.1/cb', 'https://127.9.9.9/cb', 'https://2130706433/cb', 'https://0x7f000001/cb', 'https://0177.0.0.1/cb',
  'https://0x7f.1/cb', 'https://127.1/cb', 'https://[::1]/cb', 'https://[0:0:0:0:0:0:0:1]/cb',
  // IPv4-mapped and other IPv6 forms that embed an IPv4 address
  'https://[::ffff:127.0.0.1]/cb', 'https://[::ffff:7f00:1]/cb', 'https://[::ffff:10.0.0.1]/cb', 'https://[64:ff9b::a00:1]/cb',
  'https://[2002:a00:1::]/cb', 'https://[2001::1]/cb',
  // private, link-local (cloud metadata), CGNAT, unspecified, broadcast, multicast, reserved, documentation, benchmarking
  'https://10.1.2.3/cb', 'https://172.16.0.1/cb', 'https://172.31.255.255/cb', 'https://192.168.1.1/cb', 'https://169.254.169.254/latest/meta-data',
  'https://100.64.0.1/cb', 'https://0.0.0.0/cb', 'https://255.255.255.255/cb', 'https://224.0.0.1/cb', 'https://239.255.255.250/cb',
  'https://240.0.0.1/cb', 'https://192.0.2.10/cb', 'https://198.18.0.1/cb', 'https://[fe80::1]/cb', 'https://[fc00::1]/cb', 'https://[fd12:3456::1]/cb',
  'https://[ff02::1]/cb', 'https://[::]/cb', 'https://[2001:db8::1]/cb',
  // names that resolve there, including one that mixes a public and a loopback address
  'https://intranet.example/cb', 'https://metadata.example/cb', 'https://rebind.example/cb', 'https://cgnat.example/cb', 'https://v6private.example/cb'
]

describe('the SSRF guard, at connect time', () => {
  for (const url of REFUSED_URLS) {
    test(`refuses ${url} before connecting`, async () => {
      const { out, reached } = trapped(false)
      await assert.rejects(out.post(url, Buffer.from('x'), {}), (err: Error & { cause?: unknown }) => err instanceof RefusedAddress || err.cause instanceof RefusedAddress)
      assert.deepEqual(reached, [], 'the guard let it through to the connector')
      await out.close()
    })
  }

  test('a public address or name reaches the connector, which is sent to the vetted address', async () => {
    const { out, reached } = trapped(false)
    for (const url of ['https://93.184.216.34/cb', 'https://[2606:4700:4700::1111]/cb', 'https://public.example:8443/cb?x=1']) {
      await assert.rejects(out.post(url, Buffer.from('x'), {}), /trap/)
    }
    assert.deepEqual(reached.map((r) => r.hostname), ['93.184.216.34', '2606:4700:4700::1111', '93.184.216.34'])
    assert.equal(reached[2]!.host, 'public.example:8443', 'TLS still checks the certificate against the name')
    await out.close()
  })

  test('WEBSUB_ALLOW_PRIVATE_CALLBACKS lets loopback and private addresses through, never multicast or unspecified', async () => {
    const { out, reached } = trapped(true)
    for (const url of ['https://127.0.0.1:9/cb', 'https://[::1]/cb', 'https://10.0.0.1/cb', 'https://intranet.example/cb']) {
      await assert.rejects(out.post(url, Buffer.from('x'), {}), /trap/)
    }
    for (const url of ['https://224.0.0.1/cb', 'https://0.0.0.0/cb', 'https://255.255.255.255/cb']) {
      await assert.rejects(out.post(url, Buffer.from('x'), {}), (err: Error & { cause?: unknown }) => err instanceof RefusedAddress || err.cause instanceof RefusedAddress)
    }
    assert.equal(reached.length, 4)
    await out.close()
  })
})

describe('the SSRF guard, on its own', () => {
  test('names the address and its range in the refusal', async () => {
    await assert.rejects(new AddressGuard(false, resolve).vet('metadata.example'), /metadata\.example is 169\.254\.169\.254, a linkLocal address/)
    await assert.rejects(new AddressGuard(false, resolve).vet('[::ffff:127.0.0.1]'), /a loopback address/)
  })

  test('a name that does not resolve is refused', async () => {
    await assert.rejects(new AddressGuard(false, resolve).vet('nowhere.example'), /ENOTFOUND/)
  })

  test('localhost resolves (through the system resolver, /etc/hosts) to loopback and is refused', async () => {
    await assert.rejects(new AddressGuard(false).vet('localhost'), RefusedAddress)
  })
})
