// Sign-in: e-mail and password. Failures say what the server said, in its words.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, post, type Me } from '../api.js';

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  useEffect(() => email.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await post<Me>('/session', { email: form.get('email'), password: form.get('password') }));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Something went wrong. Try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form class="card" onSubmit={(event) => void submit(event)} noValidate>
        <h1>Walkaround</h1>
        <p class="muted">Sign in to see your inspections.</p>
        <label for="email">E-mail</label>
        <input ref={email} id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
