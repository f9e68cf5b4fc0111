// Sign-in: e-mail and password. Failures say what the server said, in its words.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, type Me } from '../api.js';
import { ErrorNotice } from '../components/notices.js';

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  useEffect(() => email.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    /** As typed: a password may begin or end with a space. */
    const entered = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(
        await api.POST('/portal/api/session', {
          body: { email: entered('email'), password: entered('password') },
        }),
      );
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
        <ErrorNotice text={error} />
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
