// What a shared report blurs on a photo (docs/portal.md#sharing): the people the vehicle detector found
// (the whole person: a face is inside it) and the licence plate the text reader located. A margin around
// each keeps an edge of a face or a plate from showing.
import type { InspectionResult } from '../../domain/result/index.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MARGIN = 0.15;

export function privacyRegions(item: InspectionResult['media'][number]): Box[] {
  const people = item.analysis.vehicles?.people?.map((person) => person.box) ?? [];
  const plate = item.analysis.text?.plate.box;
  return [...people, ...(plate ? [plate] : [])].map(widened);
}

function widened(box: Box): Box {
  const dx = box.width * MARGIN;
  const dy = box.height * MARGIN;
  const x = Math.max(0, box.x - dx);
  const y = Math.max(0, box.y - dy);
  return {
    x,
    y,
    width: Math.min(1, box.x + box.width + dx) - x,
    height: Math.min(1, box.y + box.height + dy) - y,
  };
}
