// Training data from reviews (docs/portal.md#label-export): the damage boxes reviewers set, with the
// photos they are drawn on, in COCO format, for an operator training their own damage model for the ONNX
// adapter. A photo a reviewer looked at and left without damages is exported too (a negative example).
import { Type, type Static } from '@sinclair/typebox';
import type { InspectionResult } from '../../domain/result/index.js';
import type { Db } from '../../ports/database.js';
import { clientScope, requireChange } from './access.js';
import type { PortalCaller } from './sessions.js';

/** COCO object-detection annotations (https://cocodataset.org/#format-data), boxes in pixels. */
export const CocoExport = Type.Object({
  info: Type.Object({ description: Type.String(), version: Type.String(), date_created: Type.String() }),
  images: Type.Array(
    Type.Object({
      id: Type.Integer(),
      file_name: Type.String(),
      width: Type.Integer(),
      height: Type.Integer(),
      sha256: Type.String(),
      inspection_id: Type.String(),
      media_id: Type.String(),
    }),
  ),
  annotations: Type.Array(
    Type.Object({
      id: Type.Integer(),
      image_id: Type.Integer(),
      category_id: Type.Integer(),
      bbox: Type.Array(Type.Number(), {
        minItems: 4,
        maxItems: 4,
        description: 'x, y, width, height in pixels.',
      }),
      area: Type.Number(),
      iscrowd: Type.Literal(0),
      attributes: Type.Object({ severity: Type.String(), source: Type.String() }),
    }),
  ),
  categories: Type.Array(
    Type.Object({ id: Type.Integer(), name: Type.String(), supercategory: Type.String() }),
  ),
});
export type CocoExport = Static<typeof CocoExport>;

/**
 * The reviewed photos the caller may export (those who may change things: an operator every client's, or
 * the one they choose; a client admin their own), reviewed at or after `since` (epoch ms).
 */
export async function exportLabelsFor(
  deps: { db: Db; now: () => number },
  caller: PortalCaller,
  chosen: { clientId?: string | undefined; since?: number | undefined },
): Promise<CocoExport> {
  requireChange(caller);
  return exportLabels(deps, { clientId: clientScope(caller, chosen.clientId) ?? null, since: chosen.since });
}

/** The reviewed photos of one client (or every client: null), reviewed at or after `since` (epoch ms). */
export async function exportLabels(
  deps: { db: Db; now: () => number },
  filter: { clientId: string | null; since?: number | undefined },
): Promise<CocoExport> {
  let query = deps.db
    .selectFrom('inspections')
    .select(['id', 'result'])
    .where('reviewed_at', 'is not', null)
    .orderBy('reviewed_at')
    .orderBy('id');
  if (filter.clientId !== null) query = query.where('client_id', '=', filter.clientId);
  if (filter.since !== undefined) query = query.where('reviewed_at', '>=', filter.since);
  const coco: CocoExport = {
    info: {
      description: 'Walkaround reviewed damages',
      version: '1',
      date_created: new Date(deps.now()).toISOString(),
    },
    images: [],
    annotations: [],
    categories: [],
  };
  const categories = new Map<string, number>();
  for (const row of await query.execute()) {
    if (row.result === null) continue;
    const result = JSON.parse(row.result) as InspectionResult;
    for (const item of result.media) {
      const damage = item.analysis.damage;
      if (item.kind !== 'image' || damage?.status !== 'reviewed' || item.width === 0) continue;
      const imageId = coco.images.length + 1;
      coco.images.push({
        id: imageId,
        file_name: `${item.sha256}${extensionOf(item.mime)}`,
        width: item.width,
        height: item.height,
        sha256: item.sha256,
        inspection_id: row.id,
        media_id: item.id,
      });
      for (const d of damage.damages) {
        const name = d.part ? `${d.part}:${d.type}` : d.type;
        let categoryId = categories.get(name);
        if (categoryId === undefined) {
          categoryId = categories.size + 1;
          categories.set(name, categoryId);
          coco.categories.push({ id: categoryId, name, supercategory: d.type });
        }
        const bbox: [number, number, number, number] = [
          round(d.box.x * item.width),
          round(d.box.y * item.height),
          round(d.box.width * item.width),
          round(d.box.height * item.height),
        ];
        coco.annotations.push({
          id: coco.annotations.length + 1,
          image_id: imageId,
          category_id: categoryId,
          bbox,
          area: round(bbox[2] * bbox[3]),
          iscrowd: 0,
          attributes: { severity: d.severity, source: d.source ?? 'model' },
        });
      }
    }
  }
  return coco;
}

const round = (value: number) => Math.round(value * 10) / 10;

function extensionOf(mime: string): string {
  const known: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/heic': '.heic' };
  return known[mime] ?? '';
}
