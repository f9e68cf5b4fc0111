// The inspection's history: the timeline from the link to the last webhook attempt, and the webhook
// messages with their attempts and a re-send.
import { useState } from 'preact/hooks';
import { api, errorText, type Delivery, type InspectionPage } from '../api.js';
import { when } from '../format.js';

const EVENT_NAMES: Record<string, string> = {
  'link.created': 'Link created',
  'link.sent': 'Link sent',
  'link.held': 'Link message held (no provider)',
  'link.pending': 'Link message waiting to be sent',
  'link.failed': 'Link message failed',
  'link.opened': 'Link opened',
  'link.submitted': 'Submitted by the customer',
  received: 'Received',
  analysed: 'Analysed',
  reviewed: 'Reviewed',
  'analysis.failed': 'Analysis failed',
  'webhook.delivered': 'Webhook delivered',
  'webhook.retry': 'Webhook failed, will retry',
  'webhook.gone': 'Webhook refused (410 Gone)',
  'webhook.exhausted': 'Webhook failed for good',
  'webhook.refused': 'Webhook address refused',
};

export function Timeline({ entries }: { entries: InspectionPage['timeline'] }) {
  return (
    <section class="panel" aria-labelledby="timeline-title">
      <h2 id="timeline-title">Timeline</h2>
      <ol class="timeline">
        {entries.map((e, i) => (
          <li key={i}>
            <time dateTime={e.at}>{when(e.at)}</time> <strong>{EVENT_NAMES[e.event] ?? e.event}</strong>
            {e.detail && <span class="muted"> · {e.detail}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function Deliveries({
  inspectionId,
  deliveries,
  mayChange,
}: {
  inspectionId: string;
  deliveries: Delivery[];
  mayChange: boolean;
}) {
  const [notice, setNotice] = useState<string>();
  const resend = async (id: string) => {
    try {
      await api.POST('/portal/api/inspections/{id}/deliveries/{messageId}/resend', {
        params: { path: { id: inspectionId, messageId: id } },
      });
      setNotice(`Message ${id} queued to be sent again.`);
    } catch (failure) {
      setNotice(errorText(failure));
    }
  };
  return (
    <section class="panel" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      {deliveries.length === 0 && <p class="muted">No webhook message for this inspection.</p>}
      <ul class="deliveries">
        {deliveries.map((d) => (
          <li key={d.id}>
            <div>
              <strong>{d.event_type}</strong> <span class={`status delivery-${d.status}`}>{d.status}</span>
              {d.url && <span class="muted small"> {d.url}</span>}
            </div>
            <ol class="attempts">
              {d.attempts.map((a) => (
                <li key={a.attempt}>
                  #{a.attempt} {when(a.at)}: {a.status_code ?? a.error ?? 'no answer'} ({a.outcome})
                </li>
              ))}
            </ol>
            {mayChange && (
              <button type="button" class="quiet" onClick={() => void resend(d.id)}>
                Re-send
              </button>
            )}
          </li>
        ))}
      </ul>
      {notice && <p role="status">{notice}</p>}
    </section>
  );
}
