// Training data from reviews (docs/portal.md#label-export): the damage boxes reviewers set, with the
// photos they are drawn on, in COCO format, for an operator training their own damage model for the ONNX
// adapter. A photo a reviewer looked at and left without damages is exported too (a negative example).
import type { InspectionResult } from '../../domain/result/index.js';
import type { Db } from '../../ports/database.js';

export interface CocoExport {
  info: { description: string; version: string; date_created: string };
  images: {
    id: number;
    file_name: string;
    width: number;
    height: number;
    sha256: string;
    inspection_id: string;
    media_id: string;
  }[];
  annotations: {
    id: number;
    image_id: number;
    category_id: number;
    bbox: [number, number, number, number];
    area: number;
    iscrowd: 0;
    attributes: { severity: string; source: string };
  }[];
  categories: { id: number; name: string; supercategory: string }[];
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
