import { z } from 'zod';

type JsonSchema = { [key: string]: unknown };

/**
 * A Fastify response schema made from a shared zod schema (src/shared), so answers are written
 * by a serialiser compiled once (fast-json-stringify) instead of JSON.stringify walking each
 * object, and only the listed fields ever leave the server.
 *
 * zod's JSON Schema is reduced to what serialising needs: types, properties and items. Checks
 * (enum, minimum…) are dropped, and `anyOf [T, null]` becomes `type: [T, "null"]`, since
 * fast-json-stringify answers anyOf by validating each value at run time. `required` is dropped
 * too: a missing field is left out rather than failing the whole answer with a 500.
 */
export function responseSchema(schema: z.ZodType): JsonSchema {
  return reduce(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as JsonSchema);
}

/** `responseSchema` of a list of `schema`. */
export function responseListSchema(schema: z.ZodType): JsonSchema {
  return { type: 'array', items: responseSchema(schema) };
}

function reduce(node: JsonSchema): JsonSchema {
  const anyOf = node.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    const types = anyOf.map((branch) => branch.type);
    if (anyOf.length === 2 && types.includes('null') && anyOf.every((branch) => typeof branch.type === 'string')) {
      const other = anyOf.find((branch) => branch.type !== 'null')!;
      if (other.type !== 'object' && other.type !== 'array') return { type: [other.type, 'null'] };
    }
    return { anyOf: anyOf.map(reduce) };
  }
  const out: JsonSchema = {};
  if (node.type !== undefined) out.type = node.type;
  if (node.properties) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties as Record<string, JsonSchema>).map(([name, child]) => [name, reduce(child)]),
    );
  }
  if (node.items) out.items = reduce(node.items as JsonSchema);
  return out;
}
