// The console's messages (docs/portal.md#messages): the outbox of e-mails and text messages, inspection
// links to customers and set-password links to portal users, newest first, by status. A held message
// (no provider when it was written) is sent once one is configured; a failed one sent again. Texts show
// `[redacted]` where the link goes: a link is a secret, and the portal never shows it.
import { useEffect, useState } from 'preact/hooks';
import { api, errorText, queryOf, type Answer, type Query } from '../../api.js';
import { ErrorNotice, Loading, MoreButton } from '../../components/notices.js';
import { useClients, usePages } from '../../data.js';
import { when } from '../../format.js';
import { consoleHref } from '../../router.js';
import type { ConsoleProps } from './props.js';

type Message = Answer<'/portal/api/outbox'>['messages'][number];
type Status = Message['status'];
type Kind = Message['kind'];

const TABS: [Status | undefined, string][] = [
  [undefined, 'All'],
  ['held', 'Held'],
  ['failed', 'Failed'],
  ['pending', 'Waiting'],
  ['sent', 'Sent'],
];
const STATUS_NAMES: Record<Status, string> = {
  held: 'Held',
  pending: 'Waiting to send',
  sent: 'Sent',
  failed: 'Failed',
};
export const KIND_NAMES: Record<Kind, string> = {
  link: 'Inspection link',
  invitation: 'Invitation to the portal',
  password_reset: 'Password reset',
};
const CHANNEL_NAMES = { email: 'E-mail', sms: 'Text message (SMS)' } as const;
const PROVIDERS = {
  email: { name: 'mail server', article: 'a', setting: 'SMTP_URL', messages: 'e-mails' },
  sms: { name: 'SMS provider', article: 'an', setting: 'SMS_PROVIDER', messages: 'text messages' },
} as const;
const provider = (channel: 'email' | 'sms') => `${PROVIDERS[channel].name} (${PROVIDERS[channel].setting})`;

export function OutboxPage({ query, me }: ConsoleProps) {
  const [done, setDone] = useState<string>();
  const [failed, setFailed] = useState<string>();
  const operator = me.user.role === 'operator';
  const status = query.get('status') as Status | null;
  const filters = queryOf<Query<'/portal/api/outbox'>>(query, ['client_id', 'status', 'kind']);
  const pages = usePages(
    (cursor) => api.GET('/portal/api/outbox', { params: { query: { ...filters, cursor } } }),
    (page) => page.messages,
    [query.toString()],
  );
  const clients = useClients(operator).clients ?? [];
  // What the last send said belongs to the list it was sent from.
  useEffect(() => {
    setDone(undefined);
    setFailed(undefined);
  }, [query.toString()]);

  const act = async (message: Message, action: 'send' | 'resend') => {
    setDone(undefined);
    setFailed(undefined);
    try {
      await api.POST(`/portal/api/outbox/{id}/${action}`, { params: { path: { id: message.id } } });
      // The list first, so the notice never sits beside the message's old status.
      await pages.reload();
      setDone(
        `${KIND_NAMES[message.kind]} to ${message.recipient} is queued to be sent${action === 'resend' ? ' again' : ''}.`,
      );
    } catch (failure) {
      setFailed(errorText(failure));
    }
  };

  const withQuery = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(query);
    next.delete('cursor');
    for (const [name, value] of Object.entries(changes))
      if (value) next.set(name, value);
      else next.delete(name);
    return consoleHref('outbox', undefined, next);
  };
  const filter = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    location.hash = withQuery({
      client_id: (form.get('client_id') as string | null) ?? undefined,
      kind: (form.get('kind') as string | null) ?? undefined,
    });
  };

  const { first: page, items: messages } = pages;
  const missing = page ? (['email', 'sms'] as const).filter((channel) => !page.providers[channel]) : [];
  return (
    <main class="console-page outbox">
      <div class="page-head">
        <div>
          <h1>Messages</h1>
          <p class="muted">
            The e-mails and text messages the service sends: inspection links to customers, and invitations
            and password links to portal users. Newest first.
          </p>
        </div>
      </div>
      {missing.length > 0 && (
        <p class="notice">
          No {missing.map(provider).join(' and no ')} {missing.length === 2 ? 'are' : 'is'} configured, so{' '}
          {missing.map((c) => PROVIDERS[c].messages).join(' and ')} are held here instead of being sent.{' '}
          {operator
            ? 'Once one is configured, send each held message with “Send now”.'
            : 'Ask the operator of the service to configure one; held messages can then be sent from here.'}
        </p>
      )}
      <nav class="tabs" aria-label="Messages by status">
        {TABS.map(([value, label]) => (
          <a
            key={label}
            href={withQuery({ status: value })}
            aria-current={(status ?? undefined) === value ? 'page' : undefined}
          >
            {label}{' '}
            {page && (
              <span class="count">
                {value ? page.counts[value] : Object.values(page.counts).reduce((a, b) => a + b, 0)}
              </span>
            )}
          </a>
        ))}
      </nav>
      <form class="filters" onSubmit={filter} aria-label="Filter the messages">
        {operator && (
          <div class="field">
            <label for="outbox-client">Client</label>
            <select id="outbox-client" name="client_id" defaultValue={query.get('client_id') ?? ''}>
              <option value="">Every client</option>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="field">
          <label for="outbox-kind">Kind</label>
          <select id="outbox-kind" name="kind" defaultValue={query.get('kind') ?? ''}>
            <option value="">Every kind</option>
            {(Object.keys(KIND_NAMES) as Kind[]).map((kind) => (
              <option key={kind} value={kind}>
                {KIND_NAMES[kind]}
              </option>
            ))}
          </select>
        </div>
        <div class="actions">
          <button type="submit" class="primary">
            Filter
          </button>
        </div>
      </form>
      <div aria-live="polite">
        {done && <p class="saved">{done}</p>}
        <ErrorNotice text={failed ?? pages.error} />
      </div>
      {pages.loading && <Loading />}
      {page && messages.length === 0 && <p class="empty">No message matches these filters.</p>}
      {messages.length > 0 && (
        <table class="inspections messages">
          <thead>
            <tr>
              <th scope="col">Date</th>
              <th scope="col">To</th>
              <th scope="col">Message</th>
              {operator && <th scope="col">Client</th>}
              <th scope="col">Status</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {messages.map((m) => (
              <MessageRow
                key={m.id}
                message={m}
                operator={operator}
                providerMissing={page ? !page.providers[m.channel] : false}
                onAct={(action) => void act(m, action)}
              />
            ))}
          </tbody>
        </table>
      )}
      <MoreButton pages={pages}>Older messages</MoreButton>
    </main>
  );
}

function MessageRow({
  message: m,
  operator,
  providerMissing,
  onAct,
}: {
  message: Message;
  operator: boolean;
  providerMissing: boolean;
  onAct: (action: 'send' | 'resend') => void;
}) {
  const [busy, setBusy] = useState(false);
  const act = (action: 'send' | 'resend') => {
    setBusy(true);
    onAct(action);
  };
  return (
    <tr>
      <td>
        <time dateTime={m.created_at}>{when(m.created_at)}</time>
      </td>
      <td class="recipient">
        {m.recipient}
        <div class="muted small">{CHANNEL_NAMES[m.channel]}</div>
      </td>
      <td>
        <strong>{KIND_NAMES[m.kind]}</strong>
        {m.subject && <div>{m.subject}</div>}
        <details class="message-text">
          <summary>Text</summary>
          <pre>{m.body}</pre>
        </details>
      </td>
      {operator && <td>{m.client_name ?? <span class="muted">None (operator)</span>}</td>}
      <td>
        <span class={`status message-${m.status}`}>{STATUS_NAMES[m.status]}</span>
        <div class="muted small">
          {m.attempts === 0 ? 'Not tried yet' : m.attempts === 1 ? '1 attempt' : `${m.attempts} attempts`}
          {m.sent_at && `, sent ${when(m.sent_at)}`}
        </div>
        {m.last_error && m.status !== 'sent' && <div class="last-error small">{m.last_error}</div>}
      </td>
      <td>
        <div class="row-actions">
          {m.may_send && (
            <button type="button" class="primary" disabled={busy} onClick={() => act('send')}>
              Send now
            </button>
          )}
          {m.may_resend && (
            <button type="button" disabled={busy} onClick={() => act('resend')}>
              Send again
            </button>
          )}
          {!m.may_send && !m.may_resend && (m.status === 'held' || m.status === 'failed') && (
            <span class="muted small">{whyNot(m, operator, providerMissing)}</span>
          )}
        </div>
      </td>
    </tr>
  );
}

/** Why a held or failed message offers no button, in a few words. */
function whyNot(m: Message, operator: boolean, providerMissing: boolean): string {
  const { article, name } = PROVIDERS[m.channel];
  if (providerMissing)
    return operator
      ? `Held until ${article} ${provider(m.channel)} is configured`
      : `Held until the operator configures ${article} ${name}`;
  return m.kind === 'link'
    ? 'Its link can no longer be used: make a new one'
    : 'This link can no longer be used: send a new one from Users';
}
