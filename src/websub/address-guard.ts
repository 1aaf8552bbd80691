import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolve = (hostname: string) => Promise<string[]>

const systemResolve: Resolve = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => a.address)

/** Ranges a developer may reach with WEBSUB_ALLOW_PRIVATE_CALLBACKS=true (a subscriber on this machine or the LAN). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat'])

export class RefusedAddress extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string
  ) {
    super(`callback host ${host} is ${host === address ? '' : `${address}, `}a ${range} address; only public addresses may receive callbacks`)
  }
}

/**
 * The SSRF guard. A callback may only reach a public unicast address: loopback, private, link-local, CGNAT,
 * multicast, broadcast, unspecified, reserved and documentation ranges, and IPv6 forms that embed an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo), are refused. IPv4 written in decimal, hex or octal reaches here already
 * normalised by the WHATWG URL parser ("2130706433" and "0x7f.1" are 127.0.0.1).
 */
export class AddressGuard {
  constructor(
    private readonly allowPrivate: boolean,
    private readonly resolve: Resolve = systemResolve
  ) {}

  /** Throws RefusedAddress unless the address may be reached. */
  check(host: string, address: string): void {
    const ip = ipaddr.process(address)
    const range = ip.range()
    if (range === 'unicast' || (this.allowPrivate && PRIVATE_RANGES.has(range))) return
    throw new RefusedAddress(host, ip.toString(), range)
  }

  /**
   * The address to connect to for a URL host: an IP literal is checked as it is; a name is resolved and every
   * address it has must pass, so a name cannot smuggle a private address in among public ones. The caller connects
   * to the returned address, not the name, so DNS cannot change the answer between check and connect.
   */
  async vet(hostname: string): Promise<string> {
    const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
    if (ipaddr.isValid(literal)) {
      this.check(hostname, literal)
      return ipaddr.process(literal).toString()
    }
    const addresses = await this.resolve(hostname)
    if (addresses.length === 0) throw new Error(`callback host ${hostname} has no address`)
    for (const a of addresses) this.check(hostname, a)
    return ipaddr.process(addresses[0]!).toString()
  }
}
