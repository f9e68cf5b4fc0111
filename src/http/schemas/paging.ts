// The query fields of every keyset-paged list of the portal (services/keyset-pages.ts): the cursor of the
// page before, and the page size.
import { Type } from '@sinclair/typebox';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** Spread last into a list's query schema. */
export const pageFields = {
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
  limit: Type.Optional(
    Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'Page size, 1 to 200 (50).' }),
  ),
};

/** The page a query asks for: its cursor, and its size within the bounds. */
export function pageRequest(q: { cursor?: string | undefined; limit?: string | undefined }): {
  cursor: string | undefined;
  limit: number;
} {
  return { cursor: q.cursor, limit: Math.min(Number(q.limit ?? DEFAULT_PAGE_SIZE), MAX_PAGE_SIZE) };
}
