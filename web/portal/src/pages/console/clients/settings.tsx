// A client's settings: its name and how long inspection links stay valid; the quota, service window and
// time zone too for operators (a client admin sees them, read-only: the operator sets what is sold).
import { useState } from 'preact/hooks';
import { api, type Body } from '../../../api.js';
import { FieldError, failureOf, invalidProps, type Failure } from '../../../components/field-error.js';
import { field } from '../../../form.js';
import { when } from '../../../format.js';
import type { ClientTabProps } from './detail.js';
import { SETTING_FAILURES } from './setting-failures.js';
import { TimeZoneInput } from './time-zone.js';

export const patchClient = (id: string, body: Body<'/portal/api/clients/{id}', 'patch'>) =>
  api.PATCH('/portal/api/clients/{id}', { params: { path: { id } }, body });

export function Settings({ client, onChange }: ClientTabProps) {
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<Failure>();
  const limits = client.may_change_limits;

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (name: string) => field(form, name);
    setNotice(undefined);
    setError(undefined);
    try {
      const saved = await patchClient(client.id, {
        name: text('name'),
        link_ttl_seconds: Math.round(Number(text('link_ttl_hours')) * 3600),
        auto_compare: form.get('auto_compare') === 'on',
        ...(limits && {
          quota_per_hour: Number(text('quota_per_hour')),
          service_window: text('service_window') || null,
          timezone: text('timezone'),
        }),
      });
      onChange(saved);
      setNotice(`Saved at ${when(new Date().toISOString())}.`);
    } catch (failure) {
      setError(failureOf(failure, SETTING_FAILURES));
    }
  };

  return (
    <form class="panel settings-form" onSubmit={(e) => void submit(e)} aria-labelledby="settings-title">
      <h2 id="settings-title">General</h2>
      <div class="field">
        <label for="client-name">Name</label>
        <input
          id="client-name"
          name="name"
          required
          maxLength={200}
          defaultValue={client.name}
          {...invalidProps(error, 'name')}
        />
        <FieldError failure={error} field="name" />
      </div>
      <div class="field">
        <label for="client-ttl">Inspection links stay valid for (hours)</label>
        <input
          id="client-ttl"
          name="link_ttl_hours"
          type="number"
          min={1}
          step="any"
          required
          defaultValue={String(client.link_ttl_seconds / 3600)}
          {...invalidProps(error, 'link_ttl_hours')}
        />
        <FieldError failure={error} field="link_ttl_hours" />
        <span class="muted small">A link sent to a customer stops working after this time.</span>
      </div>
      <div class="field">
        <label class="check">
          <input type="checkbox" name="auto_compare" defaultChecked={client.auto_compare} />
          Compare each inspection with the vehicle's previous one
        </label>
        <span class="muted small">
          Photos are matched with the last inspection of the same VIN or plate, and what changed on the
          vehicle is marked as possible new damage for a person to confirm.
        </span>
      </div>
      {limits ? (
        <>
          <div class="field">
            <label for="client-quota">Quota: uploads per hour</label>
            <input
              id="client-quota"
              name="quota_per_hour"
              type="number"
              min={1}
              required
              defaultValue={String(client.quota_per_hour)}
              {...invalidProps(error, 'quota_per_hour')}
            />
            <FieldError failure={error} field="quota_per_hour" />
          </div>
          <div class="field">
            <label for="client-window">Service window</label>
            <input
              id="client-window"
              name="service_window"
              defaultValue={client.service_window ?? ''}
              placeholder="mon-fri 08:00-18:00, sat 09:00-13:00"
              {...invalidProps(error, 'service_window')}
            />
            <FieldError failure={error} field="service_window" />
            <span class="muted small">
              When uploads are taken: days and hours, such as{' '}
              <code>mon-fri 08:00-18:00, sat 09:00-13:00</code>. Empty: always.
            </span>
          </div>
          <TimeZoneInput id="client-timezone" value={client.timezone} />
          <FieldError failure={error} field="timezone" />
        </>
      ) : (
        <div class="read-only">
          <dl class="facts">
            <div>
              <dt>Quota</dt>
              <dd>{client.quota_per_hour} uploads per hour</dd>
            </div>
            <div>
              <dt>Service window</dt>
              <dd>
                {client.service_window ?? 'Always'} ({client.timezone})
              </dd>
            </div>
          </dl>
          <p class="muted small">The quota and service window are set by your Walkaround operator.</p>
        </div>
      )}
      <FieldError failure={error} />
      <div class="actions">
        <button type="submit" class="primary">
          Save settings
        </button>
        {notice && (
          <span role="status" class="saved">
            {notice}
          </span>
        )}
      </div>
    </form>
  );
}
