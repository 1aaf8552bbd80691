import type { FastifyInstance } from 'fastify'

/**
 * Every path the app answers GET on, read from Fastify's own route tree, so a route added later is in every loop
 * over them without anyone remembering to list it. printRoutes draws the radix tree: each line is one node, indented
 * four columns per level, and a node's path is its ancestors' pieces joined.
 */
export function getRoutes(app: FastifyInstance): string[] {
  const paths: string[] = []
  const pieces: string[] = []
  for (const line of app.printRoutes({ method: 'GET', commonPrefix: false }).split('\n')) {
    const node = /^((?:[│ ] {3})*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!node) continue
    pieces.length = node[1]!.length / 4
    pieces.push(node[2]!)
    if (node[3]) paths.push(pieces.join(''))
  }
  return paths
}
