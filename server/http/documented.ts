/**
 * A schema whose JSON Schema cannot be read from it (a `z.unknown().transform(...)` that picks the
 * real schema at parse time) is documented as another zod schema made of the same parts: the
 * document generator (server/openapi/document.ts) substitutes it. Nothing is described twice.
 */
import type { z } from 'zod';

const documented = new WeakMap<z.ZodType, z.ZodType>();

/** Documents `schema` as `shape` in the OpenAPI document; returns `schema`. */
export function documentAs<S extends z.ZodType>(schema: S, shape: z.ZodType): S {
  documented.set(schema, shape);
  return schema;
}

export function documentedShape(schema: z.ZodType): z.ZodType | undefined {
  return documented.get(schema);
}
