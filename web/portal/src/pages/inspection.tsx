// One inspection: the photos with what was found drawn on them, flags in words, each photo's facts,
// before/after pairs, videos with their keyframes, the result JSON, the timeline and webhooks, sharing,
// the PDF, earlier versions, and (client admins and operators) the review.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, errorText, type Damage, type InspectionPage, type Me } from '../api.js';
import { Deliveries, Timeline } from '../components/activity.js';
import { ComparePanel } from '../components/compare-panel.js';
import { EstimatePanel, type Adjustment } from '../components/estimate-panel.js';
import { FlagBadges, FlagList } from '../components/flag-badges.js';
import { MediaDetails } from '../components/media-details.js';
import { ErrorNotice, Loading } from '../components/notices.js';
import { PhotoViewer } from '../components/photo-viewer.js';
import { ReviewPanel, type ReviewDraft } from '../components/review-panel.js';
import { SharePanel } from '../components/share-panel.js';
import { VideoPlayer } from '../components/video-player.js';
import { useLoad } from '../data.js';
import { flagText } from '../../../../src/domain/flags.js';
import { count, mediaName, sourceName, STATUS_NAMES, when } from '../format.js';
import { useKeys } from '../keys.js';
import { placeInQueue } from '../queue.js';
import { inspectionHref, vehicleHref } from '../router.js';

const notFound = (failure: unknown) =>
  failure instanceof ApiError && failure.status === 404
    ? 'No such inspection, or not one you may see.'
    : failure instanceof Error
      ? failure.message
      : String(failure);

/** The inspection's page: its latest version, or `version`. */
const inspectionPage = (id: string, version?: number) =>
  api.GET('/portal/api/inspections/{id}', {
    params: { path: { id }, query: version ? { version: String(version) } : {} },
  });

export function InspectionView(props: {
  id: string;
  version: number | undefined;
  media: string | undefined;
  me: Me;
}) {
  const [current, setCurrent] = useState<string | undefined>(props.media);
  const [editing, setEditing] = useState(false);
  const [edits, setEdits] = useState<Record<string, Damage[]>>({});
  const [selected, setSelected] = useState<number>();
  const [draft, setDraft] = useState<ReviewDraft>({ decision: null, note: '' });
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [adjustments, setAdjustments] = useState<Adjustment[]>();
  /** Flags the strip is filtered by (every one of them). */
  const [stripFlags, setStripFlags] = useState<Set<string>>(new Set());
  const base = `/portal/api/inspections/${encodeURIComponent(props.id)}`;

  const {
    data: page,
    error,
    set: setPage,
  } = useLoad(
    async () => {
      const loaded = await inspectionPage(props.id, props.version);
      setCurrent((c) => c ?? loaded.result?.media[0]?.id);
      setDraft({ decision: loaded.inspection.review_decision, note: '' });
      return loaded;
    },
    [props.id, props.version],
    { describe: notFound },
  );

  const result = page?.result ?? null;
  const item = useMemo(
    () => result?.media.find((m) => m.id === current) ?? result?.media[0],
    [result, current],
  );
  const place = useMemo(() => placeInQueue(props.id), [props.id]);
  // The saved notice is pinned over the page: it goes after a while, so it does not hide the controls.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(undefined), 8000);
    return () => clearTimeout(timer);
  }, [notice]);
  const strip = (result?.media ?? []).filter((m) => [...stripFlags].every((flag) => m.flags.includes(flag)));
  /** The photo `step` places along the strip from the one shown (none past either end). */
  const stepPhoto = (step: number) => () => {
    const next = strip[strip.findIndex((m) => m.id === item?.id) + step];
    if (!next) return;
    setCurrent(next.id);
    setSelected(undefined);
  };
  const open = (id: string | undefined) => () => {
    if (id) location.hash = inspectionHref(id);
  };
  useKeys({
    ArrowRight: stepPhoto(1),
    j: stepPhoto(1),
    ArrowLeft: stepPhoto(-1),
    k: stepPhoto(-1),
    // Not while editing: the unsaved boxes would be lost without a word.
    ']': editing ? undefined : open(place?.next),
    '[': editing ? undefined : open(place?.previous),
  });
  if (error)
    return (
      <main class="inspection-page">
        <a href="#/inspections">← Inspections</a>
        <ErrorNotice text={error} />
      </main>
    );
  if (!page) return <Loading />;
  const { inspection } = page;
  const latest = page.version === page.latest_version;
  const canReview = page.may_change && latest && inspection.status === 'completed' && result !== null;
  const damagesOf = (id: string) =>
    edits[id] ?? result?.media.find((m) => m.id === id)?.analysis.damage?.damages ?? [];

  const save = async () => {
    setSaving(true);
    setSaveError(undefined);
    try {
      const saved = await api.POST('/portal/api/inspections/{id}/review', {
        params: { path: { id: inspection.id } },
        body: {
          // Reviews are offered on the latest version of a result, so there is one.
          base_version: page.latest_version!,
          decision: draft.decision,
          note: draft.note || null,
          damages: edits,
          ...(adjustments && { estimate_adjustments: adjustments }),
        },
      });
      setEditing(false);
      setEdits({});
      setAdjustments(undefined);
      setNotice(`Review saved as version ${saved.version}.`);
      setPage(await inspectionPage(inspection.id));
      if (props.version) location.hash = inspectionHref(inspection.id, { media: current });
    } catch (failure) {
      setSaveError(errorText(failure));
    } finally {
      setSaving(false);
    }
  };

  const jsonText = result ? JSON.stringify(result, null, 2) : '';
  return (
    <main class="inspection-page">
      <QueueBar place={place} />
      <div class="page-head">
        <div>
          <h1>{inspection.case_id}</h1>
          <p class="muted">
            {inspection.client_name} · {sourceName(inspection.source)} · received{' '}
            {when(inspection.created_at)}
            {inspection.agent_name ? ` · agent ${inspection.agent_name}` : ''}
          </p>
          {result?.vehicle_id && (
            <p class="muted">
              <a href={vehicleHref(result.vehicle_id)}>This vehicle's history</a>
              {result.comparison && (
                <>
                  {' · compared with '}
                  <a href={inspectionHref(result.comparison.previous_inspection_id)}>
                    the previous inspection
                  </a>
                  {`: ${count(result.comparison.regions, 'candidate region')} on ${count(result.comparison.compared, 'photo')}`}
                </>
              )}
            </p>
          )}
          <p>
            <span class={`status status-${inspection.status}`}>{STATUS_NAMES[inspection.status]}</span>
            {inspection.review_decision && (
              <span class={`status review-${inspection.review_decision}`}>
                {inspection.review_decision === 'accepted' ? 'Accepted' : 'Rejected'}
              </span>
            )}
            {result && <FlagBadges flags={result.summary.flags} />}
          </p>
        </div>
        <div class="head-actions">
          {page.versions.length > 0 && (
            <label class="inline">
              Version{' '}
              <select
                value={String(page.version)}
                onChange={(e) =>
                  (location.hash = inspectionHref(inspection.id, { version: Number(e.currentTarget.value) }))
                }
              >
                {page.versions.map((v) => (
                  <option key={v.version} value={String(v.version)}>
                    {v.version} ·{' '}
                    {v.origin === 'review' ? `review by ${v.author ?? 'a former user'}` : 'analysis'} ·{' '}
                    {when(v.created_at)}
                  </option>
                ))}
              </select>
            </label>
          )}
          {result && inspection.status === 'completed' && (
            <a class="button quiet" href={`${base}/report.pdf`} download>
              Download PDF
            </a>
          )}
          {canReview && !editing && (
            <button type="button" class="primary" onClick={() => setEditing(true)}>
              Review
            </button>
          )}
        </div>
      </div>
      {!latest && (
        <p class="notice">
          You are looking at version {page.version}.{' '}
          <a href={inspectionHref(inspection.id)}>See the latest (version {page.latest_version})</a>
        </p>
      )}
      {notice && (
        <p class="notice done toast" role="status">
          {notice}
        </p>
      )}
      {inspection.status !== 'completed' && (
        <p class="notice">
          {inspection.status === 'failed'
            ? 'The analysis of this inspection failed. The timeline below says when; the operator can analyse it again.'
            : 'This inspection is not analysed yet. The page shows its result once the analysis is done.'}
        </p>
      )}

      {result && item && (
        <div class="columns">
          <div class="main-col">
            {item.kind === 'video' ? (
              <VideoPlayer src={`${base}/media/${item.id}`} item={item} />
            ) : (
              <PhotoViewer
                src={`${base}/media/${item.id}`}
                item={item}
                damages={damagesOf(item.id)}
                editing={editing}
                selected={selected}
                onSelect={setSelected}
                onChange={(damages) => setEdits((e) => ({ ...e, [item.id]: damages }))}
              />
            )}
            {stripFlags.size > 0 && (
              <p class="strip-filter">
                Showing the {count(strip.length, 'item')} flagged{' '}
                {[...stripFlags].map((flag) => flagText(flag).label).join(' and ')}.{' '}
                <button type="button" class="link" onClick={() => setStripFlags(new Set())}>
                  Show all {result.media.length}
                </button>
              </p>
            )}
            <ol class="strip" aria-label={`Photos and videos (${strip.length})`}>
              {strip.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    class="thumb-button"
                    aria-current={m.id === item.id ? 'true' : undefined}
                    onClick={() => {
                      setCurrent(m.id);
                      setSelected(undefined);
                    }}
                  >
                    {m.thumbnail_key ? (
                      <img src={`${base}/media/${m.id}/thumbnail`} alt="" />
                    ) : (
                      <span class="no-thumb">{m.kind}</span>
                    )}
                    <span class="thumb-name">
                      {m.position + 1}. {mediaName(m)}
                    </span>
                    {m.flags.length > 0 && (
                      <span class="thumb-flags">
                        {m.flags.map((flag) => flagText(flag).label).join(', ')}
                      </span>
                    )}
                  </button>
                </li>
              ))}
            </ol>
            {item.analysis.changes && (
              <ComparePanel
                key={`${item.id}:${page.version}`}
                inspectionId={inspection.id}
                item={item}
                changes={item.analysis.changes}
                version={page.version!}
                mayDecide={page.may_change && latest && !editing}
                onDecided={(version) =>
                  void inspectionPage(inspection.id).then((loaded) => {
                    setPage(loaded);
                    setNotice(`Saved as version ${version}.`);
                  })
                }
              />
            )}
            <p class="keys-hint" id="keys-hint">
              Keys: <kbd>←</kbd> <kbd>→</kbd> or <kbd>k</kbd> <kbd>j</kbd> previous and next photo
              {place && (
                <>
                  {' · '}
                  <kbd>[</kbd> <kbd>]</kbd> previous and next inspection
                </>
              )}
            </p>
            {result.pairs.length > 0 && <Pairs page={page} base={base} />}
          </div>
          <aside class="side-col">
            {editing && item.kind === 'image' && (
              <ReviewPanel
                draft={draft}
                onDraft={setDraft}
                damages={damagesOf(item.id)}
                selected={selected}
                onSelect={setSelected}
                onDamages={(damages) => setEdits((e) => ({ ...e, [item.id]: damages }))}
                changedPhotos={Object.keys(edits).length}
                saving={saving}
                error={saveError}
                onSave={() => void save()}
                onCancel={() => {
                  setEditing(false);
                  setEdits({});
                  setAdjustments(undefined);
                  setSelected(undefined);
                }}
              />
            )}
            <section class="panel" aria-labelledby="flags-title">
              <h2 id="flags-title">What was found</h2>
              <p>
                {count(result.summary.images, 'photo')}, {count(result.summary.videos, 'video')},{' '}
                {count(result.summary.damages, 'damage')}.
              </p>
              {result.review && (
                <p>
                  Reviewed by {result.review.reviewer.email} on {when(result.review.reviewed_at)}
                  {result.review.decision ? `: ${result.review.decision}` : ''}
                  {result.review.note ? ` — “${result.review.note}”` : ''}
                </p>
              )}
              <FlagList
                flags={result.summary.flags}
                counts={result.summary.flag_counts}
                itemsOf={(flag) => result.media.filter((m) => m.flags.includes(flag))}
                nameOf={(m) => `${m.position + 1}. ${mediaName(m)}`}
                selected={stripFlags}
                total={result.media.length}
                onSelect={(flag) =>
                  setStripFlags((now) => {
                    const next = new Set(now);
                    if (next.has(flag)) next.delete(flag);
                    else next.add(flag);
                    return next;
                  })
                }
              />
            </section>
            <MediaDetails item={item} base={base} inspectionId={inspection.id} siblings={result.media} />
          </aside>
          {result.estimate && (
            <div class="wide-col">
              <EstimatePanel
                estimate={result.estimate}
                editing={editing}
                adjustments={adjustments ?? result.estimate.adjustments}
                onAdjust={setAdjustments}
                csvHref={`${base}/estimate.csv`}
              />
            </div>
          )}
        </div>
      )}

      <div class="lower">
        <Timeline entries={page.timeline} />
        <Deliveries inspectionId={inspection.id} deliveries={page.deliveries} mayChange={page.may_change} />
        {result && <SharePanel inspectionId={inspection.id} mayChange={page.may_change} />}
        {result && (
          <section class="panel" aria-labelledby="json-title">
            <h2 id="json-title">Result JSON</h2>
            <div class="actions">
              <button
                type="button"
                class="quiet"
                onClick={() => void navigator.clipboard?.writeText(jsonText)}
              >
                Copy
              </button>
              <a
                class="button quiet"
                download={`inspection-${inspection.case_id}-v${page.version}.json`}
                href={`data:application/json;charset=utf-8,${encodeURIComponent(jsonText)}`}
              >
                Download
              </a>
            </div>
            <details>
              <summary>Show the JSON (version {page.version})</summary>
              <pre class="json">{jsonText}</pre>
            </details>
          </section>
        )}
      </div>
    </main>
  );
}

/**
 * The way back to the list, and (when this inspection is in the list the reviewer came from) where it
 * is in that queue with its previous and next inspection.
 */
function QueueBar({ place }: { place: ReturnType<typeof placeInQueue> }) {
  if (!place)
    return (
      <a href="#/inspections" class="back">
        ← Inspections
      </a>
    );
  const { queue, position, previous, next } = place;
  return (
    <nav class="queue-bar" aria-label="Queue">
      <a href={queue.href} class="back">
        ← {queue.label}
      </a>
      <span class="muted">
        {position} of {queue.ids.length}
      </span>
      {previous ? (
        <a href={inspectionHref(previous)} aria-keyshortcuts="[">
          Previous inspection
        </a>
      ) : (
        <span class="muted">First</span>
      )}
      {next ? (
        <a href={inspectionHref(next)} aria-keyshortcuts="]">
          Next inspection
        </a>
      ) : (
        <span class="muted">Last</span>
      )}
    </nav>
  );
}

/** Before/after pairs side by side, with the regions that changed drawn on both. */
function Pairs({ page, base }: { page: InspectionPage; base: string }) {
  const media = page.result!.media;
  return (
    <section class="panel" aria-labelledby="pairs-title">
      <h2 id="pairs-title">Before and after</h2>
      {page.result!.pairs.map((pair) => {
        const [before, after] = pair.media_ids.map((id) => media.find((m) => m.id === id));
        const regions = pair.comparison?.changed_regions ?? [];
        return (
          <div key={pair.index} class="pair">
            <p>
              Pair {pair.index + 1}:{' '}
              {pair.comparison
                ? `similarity ${(pair.comparison.similarity * 100).toFixed(0)} %, ${count(regions.length, 'changed region')}`
                : (pair.error ?? 'not compared')}
            </p>
            <div class="side-by-side">
              {[before, after].map(
                (m) =>
                  m && (
                    <PhotoViewer
                      key={m.id}
                      src={`${base}/media/${m.id}`}
                      item={m}
                      damages={[]}
                      editing={false}
                      selected={undefined}
                      onSelect={() => undefined}
                      onChange={() => undefined}
                      regions={regions}
                    />
                  ),
              )}
            </div>
          </div>
        );
      })}
    </section>
  );
}
