// The users page's forms: an invitation (e-mail, role, and for operators the client), and a change of
// role (and client). A client admin offers only their client's roles: the API refuses them an operator.
import { useState } from 'preact/hooks';
import { api, type Answer, type Me, type Role } from '../../api.js';
import {
  failureOf,
  FieldError,
  invalidProps,
  type Failure,
  type FailureRule,
} from '../../components/field-error.js';
import { field } from '../../form.js';

export type PortalUser = Answer<'/portal/api/users'>['users'][number];
/** What an invitation or a new link answers. */
export type SentLink = Answer<'/portal/api/invitations', 'post'>;

export const ROLE_NAMES: Record<Role, string> = {
  operator: 'Operator',
  client_admin: 'Client admin',
  client_viewer: 'Viewer',
};
const ROLE_HELP: Record<Role, string> = {
  operator: 'every client, and the whole console',
  client_admin: "their client's inspections, reviews, settings and users",
  client_viewer: "their client's inspections, read only",
};

/** A user the API refused (USER_INVALID, docs/errors.md), said at the field to change. */
const USER_FAILURES: FailureRule[] = [
  [
    /exists already/,
    'email',
    'Someone with this e-mail address is a user already. Find them in the list to change their role or send them a new link.',
  ],
  [/^Choose the client/, 'client_id', 'Choose the client this user works for.'],
  [/^You cannot change your own role/, 'role', 'You cannot change your own role: ask another administrator.'],
];

/** A client to choose, as the list of clients gives it. */
type Client = Answer<'/portal/api/clients'>['clients'][number];

/** The roles the caller may give: an operator any, a client admin their client's two. */
const rolesFor = (me: Me): Role[] =>
  me.user.role === 'operator'
    ? ['client_viewer', 'client_admin', 'operator']
    : ['client_viewer', 'client_admin'];

function RoleAndClient({
  me,
  clients,
  idPrefix,
  role: initialRole,
  clientId,
  failure,
}: {
  me: Me;
  clients: Client[];
  idPrefix: string;
  role: Role;
  clientId: string | null;
  failure: Failure | undefined;
}) {
  const [role, setRole] = useState<Role>(initialRole);
  return (
    <>
      <div class="field">
        <label for={`${idPrefix}-role`}>Role</label>
        <select
          id={`${idPrefix}-role`}
          name="role"
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as Role)}
          aria-describedby={`${idPrefix}-role-help`}
          {...invalidProps(failure, 'role')}
        >
          {rolesFor(me).map((r) => (
            <option key={r} value={r}>
              {ROLE_NAMES[r]}
            </option>
          ))}
        </select>
        <span id={`${idPrefix}-role-help`} class="muted small">
          Sees {ROLE_HELP[role]}.
        </span>
        <FieldError failure={failure} field="role" />
      </div>
      {me.user.role === 'operator' && role !== 'operator' && (
        <div class="field">
          <label for={`${idPrefix}-client`}>Client</label>
          <select
            id={`${idPrefix}-client`}
            name="client_id"
            defaultValue={clientId ?? ''}
            required
            {...invalidProps(failure, 'client_id')}
          >
            <option value="" disabled>
              Choose a client
            </option>
            {clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <FieldError failure={failure} field="client_id" />
        </div>
      )}
    </>
  );
}

/** The role and client the form holds, as the API takes them. */
function chosen(form: FormData, me: Me): { role: Role; client_id?: string | null } {
  const role = form.get('role') as Role;
  if (me.user.role !== 'operator') return { role };
  const client = form.get('client_id');
  return {
    role,
    client_id: role === 'operator' ? null : typeof client === 'string' && client ? client : null,
  };
}

export function InviteForm({
  me,
  clients,
  defaultClient,
  onSent,
  onCancel,
}: {
  me: Me;
  clients: Client[];
  defaultClient: string | null;
  onSent: (sent: SentLink) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      onSent(
        await api.POST('/portal/api/invitations', {
          body: { email: field(form, 'email'), ...chosen(form, me) },
        }),
      );
    } catch (failure) {
      setError(failureOf(failure, USER_FAILURES));
      setBusy(false);
    }
  };
  return (
    <form class="panel invite-form" onSubmit={(event) => void submit(event)} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a user</h2>
      <p class="muted">
        They get an e-mail with a link to choose their own password. The link works once, and for a limited
        time.
      </p>
      <div class="invite-fields">
        <div class="field">
          <label for="invite-email">E-mail</label>
          <input
            id="invite-email"
            name="email"
            type="email"
            autocomplete="off"
            required
            {...invalidProps(error, 'email')}
          />
          <FieldError failure={error} field="email" />
        </div>
        <RoleAndClient
          me={me}
          clients={clients}
          idPrefix="invite"
          role="client_viewer"
          clientId={defaultClient}
          failure={error}
        />
      </div>
      <FieldError failure={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Sending…' : 'Send invitation'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function RoleForm({
  me,
  user,
  clients,
  onSaved,
  onCancel,
}: {
  me: Me;
  user: PortalUser;
  clients: Client[];
  onSaved: (user: PortalUser) => void;
  onCancel: () => void;
}) {
  const [error, setError] = useState<Failure>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      const params = { path: { id: user.id } };
      onSaved(await api.PATCH('/portal/api/users/{id}', { params, body: chosen(form, me) }));
    } catch (failure) {
      setError(failureOf(failure, USER_FAILURES));
      setBusy(false);
    }
  };
  return (
    <form class="role-form" onSubmit={(event) => void submit(event)} aria-label={`Role of ${user.email}`}>
      <RoleAndClient
        me={me}
        clients={clients}
        idPrefix={`edit-${user.id}`}
        role={user.role}
        clientId={user.client_id}
        failure={error}
      />
      <p class="muted small">Their sessions end: they sign in again with the new role.</p>
      <FieldError failure={error} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>
          Save role
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
