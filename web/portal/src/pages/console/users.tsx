// The console's users (docs/portal.md#users): who may sign in to the portal, with what role. Operators
// manage everyone; a client admin the users of their own organisation. New users are invited by e-mail and
// choose their own password; a forgotten one gets a new link the same way. Nobody types a password for
// someone else here.
import { useState } from 'preact/hooks';
import { api, errorText } from '../../api.js';
import { ErrorNotice, Loading } from '../../components/notices.js';
import { SecretOnce } from '../../components/secret-once.js';
import { useClients, useLoad } from '../../data.js';
import { when } from '../../format.js';
import { consoleHref } from '../../router.js';
import type { ConsoleProps } from './props.js';
import { InviteForm, ROLE_NAMES, RoleForm, type PortalUser, type SentLink } from './user-forms.js';

export function UsersPage({ query, me }: ConsoleProps) {
  const [failed, setFailed] = useState<string>();
  const [done, setDone] = useState<preact.ComponentChildren>();
  const [inviting, setInviting] = useState(false);
  const [editing, setEditing] = useState<string>();
  /** The user whose disabling waits for a second click (it signs them out everywhere). */
  const [confirming, setConfirming] = useState<string>();
  const operator = me.user.role === 'operator';
  const clientFilter = query.get('client_id');
  const list = useLoad(
    () =>
      api.GET('/portal/api/users', {
        params: { query: clientFilter ? { client_id: clientFilter } : {} },
      }),
    [clientFilter],
  );
  const users = list.data?.users;
  const clients = useClients(operator).clients ?? [];

  /** Says what happened to the e-mail: on its way, or held until a mail server is configured. */
  const sentNotice = (what: string, sent: SentLink) =>
    sent.url ? (
      // No mail server, and an operator: the link to pass on by hand, this once.
      <>
        {what} for {sent.user.email} is ready, but no mail server is configured. Copy the link below and pass
        it on yourself, by a way you trust: it is shown only now (a new link replaces it). The e-mail waits in{' '}
        <a href={consoleHref('outbox', undefined, new URLSearchParams({ status: 'held' }))}>Messages</a> and
        goes out too once a mail server is configured.
        <SecretOnce
          id="password-link"
          label={`Link for ${sent.user.email} to choose a password`}
          value={sent.url}
          hint={`It works once, until ${when(sent.expires_at)}. The audit log records that it was shown to you.`}
        />
      </>
    ) : sent.message.status === 'held' ? (
      <>
        {what} for {sent.user.email} is ready, but no mail server is configured: the e-mail waits in{' '}
        <a href={consoleHref('outbox', undefined, new URLSearchParams({ status: 'held' }))}>Messages</a> and
        goes out once one is. Its link works until {when(sent.expires_at)}.
      </>
    ) : (
      <>
        {what} is on its way to {sent.user.email}. Its link works once, until {when(sent.expires_at)}.
      </>
    );

  const run = async (action: () => Promise<preact.ComponentChildren>) => {
    setDone(undefined);
    setFailed(undefined);
    try {
      const notice = await action();
      // The list first: a notice beside the row it speaks of, still showing the old state, contradicts it.
      await list.reload();
      setDone(notice);
    } catch (failure) {
      setFailed(errorText(failure));
    }
  };
  const sendLink = (user: PortalUser) =>
    run(async () => {
      const params = { path: { id: user.id } };
      const sent = await api.POST('/portal/api/users/{id}/password-link', { params });
      return sentNotice(user.status === 'invited' ? 'A new invitation' : 'A password reset link', sent);
    });
  const setDisabled = (user: PortalUser, disabled: boolean) =>
    run(async () => {
      await api.PATCH('/portal/api/users/{id}', { params: { path: { id: user.id } }, body: { disabled } });
      return disabled
        ? `${user.email} is disabled and signed out everywhere.`
        : `${user.email} can sign in again.`;
    });

  return (
    <main class="console-page users">
      <div class="page-head">
        <div>
          <h1>Users</h1>
          <p class="muted">
            {operator
              ? 'Everyone who signs in to the portal: operators, and the people of each client.'
              : 'The people of your organisation who sign in to the portal.'}
          </p>
        </div>
        {!inviting && (
          <button
            type="button"
            class="primary"
            onClick={() => {
              setDone(undefined);
              setInviting(true);
            }}
          >
            Invite a user
          </button>
        )}
      </div>
      {inviting && (
        <InviteForm
          me={me}
          clients={clients}
          defaultClient={clientFilter}
          onCancel={() => setInviting(false)}
          onSent={(sent) => {
            setInviting(false);
            void run(() => Promise.resolve(sentNotice('An invitation', sent)));
          }}
        />
      )}
      {operator && clients.length > 0 && (
        <form
          class="filters"
          aria-label="Filter the users"
          onSubmit={(event) => {
            event.preventDefault();
            const value = new FormData(event.currentTarget).get('client_id');
            location.hash = consoleHref(
              'users',
              undefined,
              new URLSearchParams(typeof value === 'string' && value ? { client_id: value } : {}),
            );
          }}
        >
          <div class="field">
            <label for="users-client">Users of</label>
            <select id="users-client" name="client_id" defaultValue={clientFilter ?? ''}>
              <option value="">Every client, and operators</option>
              {clients.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
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
      )}
      <div aria-live="polite">
        {done && <div class="saved">{done}</div>}
        <ErrorNotice text={failed ?? list.error} />
      </div>
      {list.loading && !failed && <Loading />}
      {users?.length === 0 && <p class="empty">No user yet. Invite the first one.</p>}
      {users && users.length > 0 && (
        <table class="inspections user-list">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              {operator && <th scope="col">Client</th>}
              <th scope="col">Status</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const self = user.id === me.user.id;
              return (
                <tr key={user.id}>
                  <td>
                    {user.email}
                    {self && <span class="muted"> (you)</span>}
                  </td>
                  <td>
                    {editing === user.id ? (
                      <RoleForm
                        me={me}
                        user={user}
                        clients={clients}
                        onCancel={() => setEditing(undefined)}
                        onSaved={(saved) => {
                          setEditing(undefined);
                          void run(() =>
                            Promise.resolve(`${saved.email} is now ${ROLE_NAMES[saved.role].toLowerCase()}.`),
                          );
                        }}
                      />
                    ) : (
                      <span class="role-name">{ROLE_NAMES[user.role]}</span>
                    )}
                  </td>
                  {operator && <td>{user.client_name ?? <span class="muted">Every client</span>}</td>}
                  <td>
                    <UserStatus user={user} />
                  </td>
                  <td>
                    <div class="row-actions">
                      {!self && editing !== user.id && (
                        <button
                          type="button"
                          onClick={() => {
                            setDone(undefined);
                            setEditing(user.id);
                          }}
                        >
                          Change role
                        </button>
                      )}
                      {user.status !== 'disabled' && (
                        <button type="button" onClick={() => void sendLink(user)}>
                          {user.status === 'invited' ? 'Send new invitation' : 'Send reset link'}
                        </button>
                      )}
                      {!self &&
                        (user.status === 'disabled' ? (
                          <button type="button" onClick={() => void setDisabled(user, false)}>
                            Enable
                          </button>
                        ) : confirming === user.id ? (
                          <span class="confirm" role="group" aria-label={`Disable ${user.email}?`}>
                            <span class="small">Disable and sign out everywhere?</span>
                            <button
                              type="button"
                              class="danger"
                              onClick={() => {
                                setConfirming(undefined);
                                void setDisabled(user, true);
                              }}
                            >
                              Yes, disable
                            </button>
                            <button type="button" class="quiet" onClick={() => setConfirming(undefined)}>
                              Cancel
                            </button>
                          </span>
                        ) : (
                          <button type="button" class="danger" onClick={() => setConfirming(user.id)}>
                            Disable
                          </button>
                        ))}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </main>
  );
}

const MESSAGE_STATES = {
  pending: 'e-mail on its way',
  sent: 'e-mail sent',
  failed: 'e-mail failed: see Messages',
  held: 'e-mail held: no mail server',
} as const;

function UserStatus({ user }: { user: PortalUser }) {
  const link = user.password_link;
  const label = { active: 'Active', invited: 'Invited', disabled: 'Disabled' }[user.status];
  return (
    <>
      <span class={`status user-${user.status}`}>{label}</span>
      {link && user.status !== 'disabled' && (
        <div class="muted small">
          {link.purpose === 'invite' ? 'Invitation' : 'Reset link'}{' '}
          {link.expired ? `expired ${when(link.expires_at)}` : `works until ${when(link.expires_at)}`}
          {link.message_status && !link.expired && `; ${MESSAGE_STATES[link.message_status]}`}
        </div>
      )}
    </>
  );
}
