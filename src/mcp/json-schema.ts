import { z } from 'zod'

type JsonSchema = Record<string, unknown> & { $ref?: string; $defs?: Record<string, Record<string, unknown>> }

/**
 * A domain schema as the JSON Schema an MCP tool lists. MCP wants an object schema at the root, but zod puts a
 * schema that has an id behind a `$ref`; that definition is lifted to the root and the other definitions stay.
 * `$schema` is left out: the SDK client validates with a draft-07 Ajv, which rejects an unknown meta-schema.
 */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema
  const ref = json.$ref?.match(/^#\/\$defs\/(.+)$/)?.[1]
  if (!ref || !json.$defs?.[ref]) return json
  const { [ref]: root, ...others } = json.$defs
  return Object.keys(others).length ? { ...root, $defs: json.$defs } : root!
}
