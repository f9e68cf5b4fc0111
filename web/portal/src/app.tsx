// The portal: sign-in, then the inspection list and an inspection's page; a share link's page needs no
// account. Roles decide what is offered (docs/portal.md#roles); the API checks them again.
import { useEffect, useState } from 'preact/hooks';
import { api, setCsrfToken, signedOut, type Me } from './api.js';
import { InspectionView } from './pages/inspection.js';
import { InspectionListView } from './pages/list.js';
import { SharedView } from './pages/shared.js';
import { SignIn } from './pages/sign-in.js';
import { useRoute } from './router.js';

const ROLE_NAMES = { operator: 'Operator', client_admin: 'Client admin', client_viewer: 'Viewer' } as const;

export function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  useEffect(() => {
    if (route.page === 'share') return;
    api<Me>('/session').then(
      (found) => {
        setCsrfToken(found.csrf_token);
        setMe(found);
      },
      () => setMe(null),
    );
    const onSignedOut = () => setMe(null);
    signedOut.addEventListener('signed-out', onSignedOut);
    return () => signedOut.removeEventListener('signed-out', onSignedOut);
  }, [route.page === 'share']);

  if (route.page === 'share') return <SharedView token={route.token} />;
  if (me === undefined)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  if (me === null)
    return (
      <SignIn
        onSignedIn={(signed) => {
          setCsrfToken(signed.csrf_token);
          setMe(signed);
        }}
      />
    );

  const signOut = async () => {
    await api('/session', { method: 'DELETE' }).catch(() => undefined);
    setMe(null);
  };

  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="#/inspections">
          Walkaround
        </a>
        <span class="who">
          {me.user.email} · {ROLE_NAMES[me.user.role]}
        </span>
        <button type="button" class="quiet" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {route.page === 'inspection' ? (
        <InspectionView
          key={`${route.id}:${route.version ?? ''}`}
          id={route.id}
          version={route.version}
          media={route.media}
          me={me}
        />
      ) : (
        <InspectionListView query={route.query} me={me} />
      )}
    </div>
  );
}
