// The page a set-password link opens (an invitation or a reset e-mail): whose account it is, then the new
// password twice; the service signs the user in. The token stays in the fragment and goes to the API in a
// header or the body, never in a URL. A used, replaced or expired link says so, and what to do.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Answer, type Me } from '../api.js';
import { ErrorNotice, Loading } from '../components/notices.js';
import { useLoad } from '../data.js';
import { when } from '../format.js';

type LinkInfo = Answer<'/portal/api/password-link'>;

const failed = (failure: unknown) =>
  failure instanceof ApiError ? failure.message : 'Something went wrong. Try again.';

export function SetPasswordPage({ token, onSignedIn }: { token: string; onSignedIn: (me: Me) => void }) {
  const { data: info, error: refused } = useLoad(
    () => api.GET('/portal/api/password-link', { params: { header: { 'x-password-token': token } } }),
    [token],
    { describe: failed },
  );

  if (refused)
    return (
      <main class="sign-in">
        <div class="card">
          <h1>This link cannot be used</h1>
          <ErrorNotice text={refused} />
          <a class="button primary" href="#/inspections">
            Go to sign-in
          </a>
        </div>
      </main>
    );
  if (!info) return <Loading>Checking your link…</Loading>;
  return <PasswordForm token={token} info={info} onSignedIn={onSignedIn} />;
}

function PasswordForm({
  token,
  info,
  onSignedIn,
}: {
  token: string;
  info: LinkInfo;
  onSignedIn: (me: Me) => void;
}) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const entered = form.get('password');
    const password = typeof entered === 'string' ? entered : '';
    if (password.trim().length < info.min_password_length)
      return setError(`Use at least ${info.min_password_length} characters besides spaces at the ends.`);
    if (password !== form.get('repeat')) return setError('The two passwords are not the same.');
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await api.POST('/portal/api/password-link', { body: { token, password } }));
    } catch (failure) {
      setError(failed(failure));
      setBusy(false);
    }
  };

  const invite = info.purpose === 'invite';
  return (
    <main class="sign-in">
      <form class="card" onSubmit={(event) => void submit(event)} noValidate>
        <h1>{invite ? 'Welcome to Walkaround' : 'Choose a new password'}</h1>
        <p class="muted">
          {invite
            ? `You are invited to the inspection portal${info.client_name ? ` of ${info.client_name}` : ''}. Choose a password: you will sign in with it and your e-mail address.`
            : 'Your current password keeps working until you save a new one here.'}
        </p>
        <label for="account">Your account</label>
        <input
          id="account"
          name="username"
          type="email"
          autocomplete="username"
          value={info.email}
          readOnly
        />
        <label for="password">New password</label>
        <input
          ref={first}
          id="password"
          name="password"
          type="password"
          autocomplete="new-password"
          minLength={info.min_password_length}
          aria-describedby="password-hint"
          required
        />
        <p id="password-hint" class="muted small">
          At least {info.min_password_length} characters, not only spaces, and not a common password (such as
          qwerty123456). A few words that you remember make a good password.
        </p>
        <label for="repeat">New password again</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" required />
        <ErrorNotice text={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save password and sign in'}
        </button>
        <p class="muted small">This link works once, until {when(info.expires_at)}.</p>
      </form>
    </main>
  );
}
