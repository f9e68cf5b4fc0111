// Small TypeBox building blocks shared by the published shapes (results, API answers).
import { Type, type TSchema } from '@sinclair/typebox';

export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);

/** An ISO 8601 UTC time (a pattern, so every JSON Schema validator checks it the same way). */
export const IsoTime = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$' });

/** The schema without its `$id`, to embed in another (an id may be registered once per validator). */
export function embedded<T extends TSchema>(schema: T): T {
  const { $id: _id, ...rest } = schema;
  return rest as T;
}
