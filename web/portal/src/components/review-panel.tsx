// The reviewer's side of the page: accept or reject, a note, and the selected photo's damages as a list
// to re-label or delete (drawing and moving happen on the photo). Saving makes a new result version.
import type { Damage } from '../api.js';
import { count } from '../format.js';
import { ErrorNotice } from './notices.js';
import { damageLabel } from './photo-viewer.js';

/** Suggested parts and types (a reviewer may type any). */
export const DAMAGE_PARTS = [
  'bumper',
  'bonnet',
  'door',
  'wing',
  'fender',
  'roof',
  'boot',
  'windscreen',
  'window',
  'mirror',
  'wheel',
  'light',
  'sill',
  'pillar',
];
export const DAMAGE_TYPES = ['scratch', 'dent', 'crack', 'broken', 'missing', 'rust', 'paint', 'glass'];

export interface ReviewDraft {
  decision: 'accepted' | 'rejected' | null;
  note: string;
}

export function ReviewPanel(props: {
  draft: ReviewDraft;
  onDraft: (draft: ReviewDraft) => void;
  damages: Damage[];
  selected: number | undefined;
  onSelect: (index: number | undefined) => void;
  onDamages: (damages: Damage[]) => void;
  changedPhotos: number;
  saving: boolean;
  error: string | undefined;
  onSave: () => void;
  onCancel: () => void;
}) {
  const { draft, damages } = props;
  const change = (index: number, fields: Partial<Damage>) =>
    props.onDamages(
      damages.map((d, i) => (i === index ? { ...d, ...fields, source: 'reviewer', confidence: 1 } : d)),
    );

  return (
    <section class="panel review-panel" aria-labelledby="review-title">
      <h2 id="review-title">Review</h2>
      <fieldset>
        <legend>Decision</legend>
        {(
          [
            ['accepted', 'Accept'],
            ['rejected', 'Reject'],
            [null, 'No decision (corrections only)'],
          ] as const
        ).map(([value, label]) => (
          <label key={label} class="radio">
            <input
              type="radio"
              name="decision"
              checked={draft.decision === value}
              onChange={() => props.onDraft({ ...draft, decision: value })}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <label for="review-note">Note (optional)</label>
      <textarea
        id="review-note"
        rows={2}
        maxLength={2000}
        value={draft.note}
        onInput={(e) => props.onDraft({ ...draft, note: e.currentTarget.value })}
      />

      <h3>Damages on this photo</h3>
      {damages.length === 0 && <p class="muted">None. Drag on the photo to draw one.</p>}
      <ol class="damage-list">
        {damages.map((d, i) => (
          <li key={i} class={props.selected === i ? 'selected' : undefined}>
            <button
              type="button"
              class="link"
              onClick={() => props.onSelect(i)}
              aria-pressed={props.selected === i}
            >
              {i + 1}. {damageLabel(d)}
              {d.source === 'reviewer' ? ' · yours' : ''}
            </button>
            {props.selected === i && (
              <div class="damage-fields">
                <label>
                  Part
                  <input
                    list="parts"
                    value={d.part ?? ''}
                    onChange={(e) => change(i, { part: e.currentTarget.value.trim() || null })}
                  />
                </label>
                <label>
                  Type
                  <input
                    list="types"
                    value={d.type}
                    required
                    onChange={(e) => change(i, { type: e.currentTarget.value.trim() || 'damage' })}
                  />
                </label>
                <label>
                  Severity
                  <select
                    value={d.severity}
                    onChange={(e) => change(i, { severity: e.currentTarget.value as Damage['severity'] })}
                  >
                    <option value="minor">minor</option>
                    <option value="moderate">moderate</option>
                    <option value="severe">severe</option>
                  </select>
                </label>
                <button
                  type="button"
                  class="danger"
                  onClick={() => {
                    props.onDamages(damages.filter((_, j) => j !== i));
                    props.onSelect(undefined);
                  }}
                >
                  Delete this damage
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      <datalist id="parts">
        {DAMAGE_PARTS.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <datalist id="types">
        {DAMAGE_TYPES.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <ErrorNotice text={props.error} />
      <div class="actions">
        <button type="button" class="primary" disabled={props.saving} onClick={props.onSave}>
          {props.saving ? 'Saving…' : 'Save review'}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
      <p class="muted small">
        {props.changedPhotos > 0 ? `Damages changed on ${count(props.changedPhotos, 'photo')}. ` : ''}Saving
        keeps the current version and adds a new one; the client’s webhook receives inspection.reviewed.
      </p>
    </section>
  );
}
