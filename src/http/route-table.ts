/** Which methods each path answers, so an unsupported method gets 405 with `Allow` rather than 404. */
export class RouteTable {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = []

  add(url: string, methods: string[]): void {
    const pattern = new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}$`)
    const all = new Set(methods)
    if (all.has('GET')) all.add('HEAD')
    this.routes.push({ pattern, methods: all })
  }

  /** Methods allowed on the path of `url`, or null when no route has that path. */
  allowed(url: string): string[] | null {
    const path = url.split('?')[0]!
    const route = this.routes.find((r) => r.pattern.test(path))
    return route ? [...route.methods] : null
  }
}
