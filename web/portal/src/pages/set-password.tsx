// The page a set-password link opens (an invitation or a reset e-mail): whose account it is, then the new
// password twice; the service signs the user in. The token stays in the fragment and goes to the API in a
// header or the body, never in a URL. A used, replaced or expired link says so, and what to do.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, post, type Me } from '../api.js';
import { when } from '../format.js';

interface LinkInfo {
  email: string;
  client_name: string | null;
  purpose: 'invite' | 'reset';
  expires_at: string;
  min_password_length: number;
}

export function SetPasswordPage({ token, onSignedIn }: { token: string; onSignedIn: (me: Me) => void }) {
  const [info, setInfo] = useState<LinkInfo>();
  const [refused, setRefused] = useState<string>();

  useEffect(() => {
    api<LinkInfo>('/password-link', { headers: { 'x-password-token': token } }).then(setInfo, (e) =>
      setRefused(e instanceof ApiError ? e.message : 'Something went wrong. Try again.'),
    );
  }, [token]);

  if (refused)
    return (
      <main class="sign-in">
        <div class="card">
          <h1>This link cannot be used</h1>
          <p class="error" role="alert">
            {refused}
          </p>
          <a class="button primary" href="#/inspections">
            Go to sign-in
          </a>
        </div>
      </main>
    );
  if (!info)
    return (
      <p class="loading" role="status">
        Checking your link…
      </p>
    );
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
    if (password.length < info.min_password_length)
      return setError(`Use at least ${info.min_password_length} characters.`);
    if (password !== form.get('repeat')) return setError('The two passwords are not the same.');
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await post<Me>('/password-link', { token, password }));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Something went wrong. Try again.');
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
          At least {info.min_password_length} characters. A few words that you remember make a good password.
        </p>
        <label for="repeat">New password again</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" required />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save password and sign in'}
        </button>
        <p class="muted small">This link works once, until {when(info.expires_at)}.</p>
      </form>
    </main>
  );
}
