// A shared report, for someone without an account: the inspection's summary, flags in words and photos
// with what was found drawn on them, read only, and its PDF. The token stays in the page (it is sent in
// a header, never in a URL), so photos and the PDF are fetched by the page and shown from blob: URLs.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError, objectUrl, type Answer } from '../api.js';
import { FlagList } from '../components/flag-badges.js';
import { MediaDetails } from '../components/media-details.js';
import { ErrorNotice, Loading } from '../components/notices.js';
import { boxStyle, damageLabel, PhotoViewer } from '../components/photo-viewer.js';
import { useLoad } from '../data.js';
import { count, mediaName, when } from '../format.js';

/** Why the report cannot be shown, in the words of someone who was sent a link. */
const problemOf = (failure: unknown) =>
  failure instanceof ApiError && failure.status === 410
    ? 'This link has expired or was revoked. Ask the sender for a new one.'
    : failure instanceof ApiError && failure.status === 404
      ? 'This link is not valid. Check that you copied all of it.'
      : 'The report cannot be shown right now. Try again later.';

export function SharedView({ token }: { token: string }) {
  const headers = { 'x-share-token': token };
  const { data: shared, error: problem } = useLoad(
    () => api.GET('/portal/api/shared', { headers }),
    [token],
    { describe: problemOf },
  );
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      const url = await objectUrl('/portal/api/shared/report.pdf', headers);
      const link = document.createElement('a');
      link.href = url;
      link.download = `inspection-${shared!.case_id}.pdf`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } finally {
      setDownloading(false);
    }
  };

  if (problem)
    return (
      <main class="shared">
        <h1>Inspection report</h1>
        <ErrorNotice text={problem} />
      </main>
    );
  if (!shared) return <Loading />;
  const { summary } = shared;
  return (
    <main class="shared">
      <div class="page-head">
        <div>
          <h1>Inspection {shared.case_id}</h1>
          <p class="muted">
            Shared by {shared.client_name} · read only · this link works until {when(shared.expires_at)}
            {shared.blur ? ' · faces and licence plates are blurred' : ''}
          </p>
        </div>
        <button type="button" class="primary" disabled={downloading} onClick={() => void download()}>
          {downloading ? 'Preparing…' : 'Download PDF'}
        </button>
      </div>
      <section class="panel" aria-labelledby="summary-title">
        <h2 id="summary-title">Summary</h2>
        <p>
          {count(summary.images, 'photo')}, {count(summary.videos, 'video')},{' '}
          {count(summary.damages, 'damage')}.
          {shared.review_decision && ` Reviewed: ${shared.review_decision}.`}
        </p>
        <FlagList flags={summary.flags} counts={summary.flag_counts} />
      </section>
      {shared.photos.map((item) => (
        <SharedPhoto key={item.id} item={item} headers={headers} details={shared.details} />
      ))}
    </main>
  );
}

/** A photo as the share shows it: on a blurred share, the API leaves out its plate and VIN readings. */
type Photo = Answer<'/portal/api/shared'>['photos'][number];

/** A shared file as a blob: URL, revoked when the page no longer shows it. */
function useSharedFile(path: string | undefined, headers: Record<string, string>) {
  const [src, setSrc] = useState<string>();
  useEffect(() => {
    if (!path) return;
    let url: string | undefined;
    void objectUrl(path, headers).then((made) => setSrc((url = made)));
    return () => url && URL.revokeObjectURL(url);
  }, [path]);
  return src;
}

/** `details`: the sharer included the photo's facts (EXIF, hash, readings); else the photo alone. */
function SharedPhoto({
  item,
  headers,
  details,
}: {
  item: Photo;
  headers: Record<string, string>;
  details: boolean;
}) {
  const src = useSharedFile(`/portal/api/shared/media/${item.id}`, headers);
  const before = useSharedFile(
    item.has_before ? `/portal/api/shared/media/${item.id}/before` : undefined,
    headers,
  );
  const newDamages = (item.analysis.damage?.damages ?? []).filter((d) => d.new);
  return (
    <section class="shared-photo" aria-label={`Photo ${item.position + 1}`}>
      <h2>
        {item.position + 1}. {item.original_id ? mediaName({ ...item, kind: 'image' }) : 'Photo'}
      </h2>
      <div class={details ? 'columns' : undefined}>
        <div class="main-col">
          {src ? (
            <PhotoViewer
              src={src}
              item={item}
              damages={item.analysis.damage?.damages ?? []}
              editing={false}
              selected={undefined}
              onSelect={() => undefined}
              onChange={() => undefined}
            />
          ) : (
            <p class="loading">Loading the photo…</p>
          )}
          {item.has_before && (
            <div class="before-after">
              <h3>New since the previous inspection</h3>
              <p>
                {newDamages.map((d) => damageLabel({ ...d, new: undefined })).join(', ')}: confirmed by a
                reviewer; it was not there at the previous inspection.
              </p>
              <div class="side-by-side">
                <figure>
                  {before ? (
                    <img src={before} alt="Before: the same view at the previous inspection" />
                  ) : (
                    <p class="loading">Loading the earlier photo…</p>
                  )}
                  <figcaption>Before</figcaption>
                </figure>
                <figure>
                  <div class="stage">
                    {src && <img src={src} alt="After: this photo, with the new damage marked" />}
                    {newDamages.map((d, i) => (
                      <div key={i} class="box damage" style={boxStyle(d.box)} />
                    ))}
                  </div>
                  <figcaption>After</figcaption>
                </figure>
              </div>
            </div>
          )}
        </div>
        {details && (
          <aside class="side-col">
            <MediaDetails item={{ ...item, sha256: item.sha256 ?? '' }} />
          </aside>
        )}
      </div>
    </section>
  );
}
