// The compare view (docs/portal.md#comparing-with-the-previous-inspection): this photo and its
// counterpart in the vehicle's previous inspection, side by side or blended with a slider, the candidate
// regions drawn on the new photo; a reviewer confirms each candidate as a damage (part, type, severity)
// or dismisses it, and either makes a new version of the result. Nothing is charged here.
import { useState } from 'preact/hooks';
import { api, errorText, type Body, type MediaItem } from '../api.js';
import { field } from '../form.js';
import { inspectionHref } from '../router.js';
import { ErrorNotice } from './notices.js';
import { boxStyle } from './photo-viewer.js';
import { DAMAGE_PARTS, DAMAGE_TYPES } from './review-panel.js';

type Changes = NonNullable<MediaItem['analysis']['changes']>;
type Decision = Body<'/portal/api/inspections/{id}/changes', 'post'>;
type Severity = NonNullable<Decision['damage']>['severity'];

const STATUS_TEXT: Record<Changes['status'], string> = {
  compared: 'Compared with the same view in the previous inspection.',
  no_counterpart: 'The previous inspection has no photo of this view, so nothing was compared.',
  not_aligned:
    'A photo of this view was found in the previous inspection, but the two could not be lined up (another angle, or too little in common), so nothing is claimed.',
};

export function ComparePanel(props: {
  inspectionId: string;
  item: MediaItem;
  changes: Changes;
  /** The version shown; decisions are saved against it. */
  version: number;
  mayDecide: boolean;
  onDecided: (version: number) => void;
}) {
  const { changes, item } = props;
  const [mode, setMode] = useState<'side' | 'blend'>('side');
  const [blend, setBlend] = useState(50);
  const [confirming, setConfirming] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const current = `/portal/api/inspections/${encodeURIComponent(props.inspectionId)}/media/${item.id}`;
  const previous =
    changes.previous_media_id &&
    `/portal/api/inspections/${encodeURIComponent(changes.previous_inspection_id)}/media/${changes.previous_media_id}`;

  const decide = async (region: number, body: Pick<Decision, 'decision' | 'damage'>) => {
    setBusy(true);
    setError(undefined);
    try {
      const saved = await api.POST('/portal/api/inspections/{id}/changes', {
        params: { path: { id: props.inspectionId } },
        body: { base_version: props.version, media_id: item.id, region, ...body },
      });
      setConfirming(undefined);
      props.onDecided(saved.version);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const regions = (
    <>
      {changes.regions.map((r, i) => (
        <div key={i} class={`box region${r.decision ? ` ${r.decision}` : ''}`} style={boxStyle(r.box)}>
          <span class="tag">{i + 1}</span>
        </div>
      ))}
    </>
  );

  return (
    <section class="panel compare-panel" aria-labelledby="compare-title">
      <h2 id="compare-title">Since the previous inspection</h2>
      <p>
        {STATUS_TEXT[changes.status]}{' '}
        <a
          href={inspectionHref(changes.previous_inspection_id, {
            media: changes.previous_media_id ?? undefined,
          })}
        >
          Open the previous inspection
        </a>
      </p>
      {previous && changes.status === 'compared' && (
        <>
          <div class="segmented" role="group" aria-label="How to compare">
            <button type="button" aria-pressed={mode === 'side'} onClick={() => setMode('side')}>
              Side by side
            </button>
            <button type="button" aria-pressed={mode === 'blend'} onClick={() => setMode('blend')}>
              Blend
            </button>
          </div>
          {mode === 'side' ? (
            <div class="side-by-side">
              <figure>
                <img src={previous} alt="Before: the previous inspection's photo" />
                <figcaption>Before</figcaption>
              </figure>
              <figure>
                <div class="stage">
                  <img src={current} alt="After: this photo, with the candidate regions" />
                  {regions}
                </div>
                <figcaption>After</figcaption>
              </figure>
            </div>
          ) : (
            <figure class="blend">
              <div class="stage">
                <img src={previous} alt="Before: the previous inspection's photo" />
                <img
                  class="over"
                  src={current}
                  alt="After: this photo, over the previous one"
                  style={{ opacity: blend / 100 }}
                />
                {regions}
              </div>
              <label class="inline">
                Before
                <input
                  type="range"
                  min={0}
                  max={100}
                  value={blend}
                  aria-label="Blend from before to after"
                  onInput={(e) => setBlend(Number(e.currentTarget.value))}
                />
                After
              </label>
            </figure>
          )}
          <h3>Candidates</h3>
          {changes.regions.length === 0 ? (
            <p class="muted">Nothing changed on the vehicle.</p>
          ) : (
            <ol class="candidates">
              {changes.regions.map((r, i) => (
                <li key={i}>
                  <span>
                    Region {i + 1} · difference {Math.round(r.score * 100)} %
                    {r.decision && (
                      <strong>
                        {' '}
                        · {r.decision === 'confirmed' ? 'confirmed as new damage' : 'dismissed'}
                      </strong>
                    )}
                  </span>
                  {props.mayDecide && !r.decision && confirming !== i && (
                    <span class="actions">
                      <button type="button" class="primary" disabled={busy} onClick={() => setConfirming(i)}>
                        Confirm…
                      </button>
                      <button
                        type="button"
                        class="quiet"
                        disabled={busy}
                        onClick={() => void decide(i, { decision: 'dismissed' })}
                      >
                        Dismiss
                      </button>
                    </span>
                  )}
                  {confirming === i && (
                    <ConfirmForm
                      busy={busy}
                      onCancel={() => setConfirming(undefined)}
                      onConfirm={(damage) => void decide(i, { decision: 'confirmed', damage })}
                    />
                  )}
                </li>
              ))}
            </ol>
          )}
        </>
      )}
      <ErrorNotice text={error} />
    </section>
  );
}

function ConfirmForm(props: {
  busy: boolean;
  onCancel: () => void;
  onConfirm: (damage: { part: string | null; type: string; severity: Severity }) => void;
}) {
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => field(form, name);
    props.onConfirm({
      part: text('part') || null,
      type: text('type') || 'damage',
      severity: text('severity') as Severity,
    });
  };
  return (
    <form class="damage-fields" onSubmit={submit}>
      <label>
        Part
        <input name="part" list="compare-parts" placeholder="e.g. door" />
      </label>
      <label>
        Type
        <input name="type" list="compare-types" required defaultValue="scratch" />
      </label>
      <label>
        Severity
        <select name="severity" defaultValue="minor">
          <option value="minor">minor</option>
          <option value="moderate">moderate</option>
          <option value="severe">severe</option>
        </select>
      </label>
      <datalist id="compare-parts">
        {DAMAGE_PARTS.map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <datalist id="compare-types">
        {DAMAGE_TYPES.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <span class="actions">
        <button type="submit" class="primary" disabled={props.busy}>
          {props.busy ? 'Saving…' : 'Confirm as new damage'}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
