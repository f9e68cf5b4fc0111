// A photo with what was found drawn over it (vehicles, the plate, VIN and odometer read, damages), zoom
// and pan; in
// review, damages are drawn by dragging on the photo, moved by dragging them and resized by their
// corner. Boxes are fractions of the photo (the result's convention), so they fit any displayed size.
import type { TargetedPointerEvent } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Box, Damage, MediaItem } from '../api.js';
import { odometerText } from '../format.js';

/** What the viewer draws of an item: a stored result's, or a share's (which may hold less). */
export type ViewedItem = Pick<MediaItem, 'position' | 'original_id'> & {
  analysis: Pick<MediaItem['analysis'], 'vehicles' | 'text'>;
};

export interface ViewerProps {
  src: string;
  item: ViewedItem;
  damages: Damage[];
  /** Review mode: damages can be drawn, moved, resized and selected. */
  editing: boolean;
  selected: number | undefined;
  onSelect: (index: number | undefined) => void;
  onChange: (damages: Damage[]) => void;
  /** Extra boxes, e.g. the changed regions of a before/after pair. */
  regions?: Box[];
}

const READING_NAMES: Record<string, string> = { plate: 'Plate', vin: 'VIN', odometer: 'Odometer' };

type Drag =
  | { kind: 'draw'; start: { x: number; y: number } }
  | { kind: 'move'; index: number; grab: { x: number; y: number }; box: Box }
  | { kind: 'resize'; index: number; box: Box }
  | { kind: 'pan'; from: { x: number; y: number }; at: { x: number; y: number } };

const MIN_SIZE = 0.01;
const clamp = (value: number, low = 0, high = 1) => Math.min(high, Math.max(low, value));
const pct = (fraction: number) => `${(fraction * 100).toFixed(3)}%`;
export const boxStyle = (box: Box) => ({
  left: pct(box.x),
  top: pct(box.y),
  width: pct(box.width),
  height: pct(box.height),
});

/**
 * A box's label runs right from its left edge, or, for a box in the photo's right half, left from its
 * right edge: a label never runs off the photo's right side, where the frame would cut it.
 */
const tagClass = (box: Box) => (box.x + box.width / 2 > 0.5 ? 'tag end' : 'tag');

export const damageLabel = (d: Damage) =>
  `${d.new ? 'New · ' : ''}${d.part ? `${d.part}: ` : ''}${d.type} (${d.severity})`;

export function PhotoViewer(props: ViewerProps) {
  const { item, damages, editing } = props;
  const stage = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(1);
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const [drag, setDrag] = useState<Drag>();
  const [draft, setDraft] = useState<Box>();

  useEffect(() => {
    setZoom(1);
    setPan({ x: 0, y: 0 });
  }, [props.src, editing]);

  /** The pointer as fractions of the photo (the stage's box includes the zoom). */
  const at = (event: PointerEvent) => {
    const rect = stage.current!.getBoundingClientRect();
    return {
      x: clamp((event.clientX - rect.left) / rect.width),
      y: clamp((event.clientY - rect.top) / rect.height),
    };
  };

  const down = (event: TargetedPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    const target = event.target as HTMLElement;
    const index = target.dataset.damage === undefined ? undefined : Number(target.dataset.damage);
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    if (!editing) {
      setDrag({ kind: 'pan', from: { x: event.clientX, y: event.clientY }, at: pan });
      return;
    }
    event.preventDefault();
    const point = at(event);
    if (index !== undefined && target.classList.contains('handle')) {
      props.onSelect(index);
      setDrag({ kind: 'resize', index, box: damages[index]!.box });
    } else if (index !== undefined) {
      props.onSelect(index);
      const box = damages[index]!.box;
      setDrag({ kind: 'move', index, grab: { x: point.x - box.x, y: point.y - box.y }, box });
    } else {
      props.onSelect(undefined);
      setDrag({ kind: 'draw', start: point });
    }
  };

  const move = (event: TargetedPointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    if (drag.kind === 'pan') {
      if (zoom > 1)
        setPan({ x: drag.at.x + event.clientX - drag.from.x, y: drag.at.y + event.clientY - drag.from.y });
      return;
    }
    const point = at(event);
    if (drag.kind === 'draw') {
      setDraft({
        x: Math.min(drag.start.x, point.x),
        y: Math.min(drag.start.y, point.y),
        width: Math.abs(point.x - drag.start.x),
        height: Math.abs(point.y - drag.start.y),
      });
    } else if (drag.kind === 'move') {
      const { width, height } = drag.box;
      update(drag.index, {
        x: clamp(point.x - drag.grab.x, 0, 1 - width),
        y: clamp(point.y - drag.grab.y, 0, 1 - height),
        width,
        height,
      });
    } else {
      const { x, y } = drag.box;
      update(drag.index, {
        x,
        y,
        width: clamp(point.x - x, MIN_SIZE, 1 - x),
        height: clamp(point.y - y, MIN_SIZE, 1 - y),
      });
    }
  };

  const up = () => {
    if (drag?.kind === 'draw' && draft && draft.width >= MIN_SIZE && draft.height >= MIN_SIZE) {
      props.onChange([
        ...damages,
        {
          part: null,
          type: 'scratch',
          severity: 'minor',
          confidence: 1,
          source: 'reviewer',
          box: round(draft),
        },
      ]);
      props.onSelect(damages.length);
    }
    setDraft(undefined);
    setDrag(undefined);
  };

  const update = (index: number, box: Box) =>
    props.onChange(
      damages.map((d, i) =>
        i === index ? { ...d, box: round(box), source: 'reviewer' as const, confidence: 1 } : d,
      ),
    );

  const zoomBy = (factor: number) => {
    const next = clamp(zoom * factor, 1, 6);
    setZoom(next);
    if (next === 1) setPan({ x: 0, y: 0 });
  };

  const vehicles = item.analysis.vehicles?.detections ?? [];
  const text = item.analysis.text;
  // The readings that say where they were read, each in its own colour, labelled with what was read.
  const readings = [
    { kind: 'plate', box: text?.plate.box, label: text?.plate.read },
    { kind: 'vin', box: text?.vin.box, label: text?.vin.read },
    { kind: 'odometer', box: text?.odometer?.box, label: odometerText(text?.odometer) },
  ].filter((r): r is { kind: string; box: Box; label: string | null | undefined } => r.box !== undefined);
  return (
    <figure class={`viewer${editing ? ' editing' : ''}`}>
      <div
        class="frame"
        onWheel={(event) => {
          if (editing) return;
          event.preventDefault();
          zoomBy(event.deltaY < 0 ? 1.2 : 1 / 1.2);
        }}
      >
        <div
          ref={stage}
          class="stage"
          style={{ transform: `translate(${pan.x}px, ${pan.y}px) scale(${zoom})` }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={up}
        >
          <img
            src={props.src}
            alt={`Photo ${item.position + 1}: ${item.original_id ?? ''}`}
            draggable={false}
          />
          {vehicles.map((v, i) => (
            <div key={`v${i}`} class="box vehicle" style={boxStyle(v.box)}>
              <span class={tagClass(v.box)}>{v.label}</span>
            </div>
          ))}
          {readings.map((r) => (
            <div key={r.kind} class={`box reading ${r.kind}`} style={boxStyle(r.box)}>
              <span class={tagClass(r.box)}>{r.label}</span>
            </div>
          ))}
          {(props.regions ?? []).map((r, i) => (
            <div key={`r${i}`} class="box region" style={boxStyle(r)} />
          ))}
          {damages.map((d, i) => (
            <div
              key={`d${i}`}
              class={`box damage${props.selected === i ? ' selected' : ''}`}
              style={boxStyle(d.box)}
              data-damage={i}
            >
              <span class={tagClass(d.box)} data-damage={i}>
                {damageLabel(d)}
              </span>
              {editing && <span class="handle" data-damage={i} aria-hidden="true" />}
            </div>
          ))}
          {draft && <div class="box damage draft" style={boxStyle(draft)} />}
        </div>
      </div>
      <figcaption class="viewer-bar">
        <span class="legend">
          <span class="key vehicle">Vehicle</span>
          <span class="key damage">Damage</span>
          {readings.map((r) => (
            <span key={r.kind} class={`key ${r.kind}`}>
              {READING_NAMES[r.kind]}
            </span>
          ))}
        </span>
        {editing ? (
          <span class="hint">
            Drag on the photo to draw a damage; drag a damage to move it, its corner to resize it.
          </span>
        ) : (
          <span class="zoom">
            <button
              type="button"
              class="quiet"
              onClick={() => zoomBy(1 / 1.5)}
              aria-label="Zoom out"
              disabled={zoom <= 1}
            >
              −
            </button>
            <span aria-live="polite">{Math.round(zoom * 100)}%</span>
            <button
              type="button"
              class="quiet"
              onClick={() => zoomBy(1.5)}
              aria-label="Zoom in"
              disabled={zoom >= 6}
            >
              +
            </button>
            {zoom > 1 && (
              <button type="button" class="quiet" onClick={() => zoomBy(0)}>
                Fit
              </button>
            )}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

const r4 = (value: number) => Math.round(value * 10_000) / 10_000;
/** Four decimals, as the analyzers write boxes; the right and bottom edges stay inside the photo. */
function round(box: Box): Box {
  const x = r4(box.x);
  const y = r4(box.y);
  return {
    x,
    y,
    width: r4(r4(Math.min(1, box.x + box.width)) - x),
    height: r4(r4(Math.min(1, box.y + box.height)) - y),
  };
}
