// The portal: sign-in, then the inspection list and an inspection's page; a share link's page needs no
// account. Roles decide what is offered (docs/portal.md#roles); the API checks them again.
import { useEffect, useState } from 'preact/hooks';
import { api, setCsrfToken, signedOut, type Me } from './api.js';
import { Loading } from './components/notices.js';
import { forgetSessionData } from './data.js';
import { InspectionView } from './pages/inspection.js';
import { InspectionListView } from './pages/list.js';
import { SetPasswordPage } from './pages/set-password.js';
import { SharedView } from './pages/shared.js';
import { SignIn } from './pages/sign-in.js';
import { VehicleView } from './pages/vehicle.js';
import { AuditPage } from './pages/console/audit.js';
import { ClientsPage } from './pages/console/clients.js';
import { OutboxPage } from './pages/console/outbox.js';
import { PersonasPage } from './pages/console/personas.js';
import { mayAdminister, type ConsoleProps } from './pages/console/props.js';
import { UsersPage } from './pages/console/users.js';
import { consoleHref, useRoute, type ConsolePage, type Route } from './router.js';

const ROLE_NAMES = { operator: 'Operator', client_admin: 'Client admin', client_viewer: 'Viewer' } as const;

const CONSOLE: Record<ConsolePage, { title: string; Page: (props: ConsoleProps) => preact.JSX.Element }> = {
  clients: { title: 'Clients', Page: ClientsPage },
  personas: { title: 'Capture flows', Page: PersonasPage },
  outbox: { title: 'Messages', Page: OutboxPage },
  users: { title: 'Users', Page: UsersPage },
  audit: { title: 'Audit log', Page: AuditPage },
};

/** The section the route belongs to, for the navigation's current item. */
const sectionOf = (route: Route) =>
  route.page === 'list' || route.page === 'inspection' || route.page === 'vehicle'
    ? 'inspections'
    : route.page;

export function App() {
  const route = useRoute();
  const [me, setMe] = useState<Me | null | undefined>(undefined);

  useEffect(() => {
    if (route.page === 'share') return;
    api.GET('/portal/api/session').then(
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
  if (route.page === 'set-password')
    return (
      <SetPasswordPage
        token={route.token}
        onSignedIn={(signed) => {
          setCsrfToken(signed.csrf_token);
          setMe(signed);
          location.hash = '#/inspections';
        }}
      />
    );
  if (me === undefined) return <Loading />;
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
    await api.DELETE('/portal/api/session').catch(() => undefined);
    forgetSessionData();
    setMe(null);
  };

  return (
    <div class="shell">
      <header class="topbar">
        <a class="brand" href="#/inspections">
          Walkaround
        </a>
        <nav class="sections" aria-label="Sections">
          <a href="#/inspections" aria-current={sectionOf(route) === 'inspections' ? 'page' : undefined}>
            Inspections
          </a>
          {mayAdminister(me) &&
            (Object.keys(CONSOLE) as ConsolePage[]).map((page) => (
              <a
                key={page}
                href={consoleHref(page)}
                aria-current={sectionOf(route) === page ? 'page' : undefined}
              >
                {me.user.role !== 'operator' && page === 'clients' ? 'Settings' : CONSOLE[page].title}
              </a>
            ))}
        </nav>
        <span class="who">
          {me.user.email} · {ROLE_NAMES[me.user.role]}
        </span>
        <button type="button" class="quiet" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      {route.page in CONSOLE ? (
        <ConsoleSection route={route} me={me} />
      ) : route.page === 'vehicle' ? (
        <VehicleView key={route.id} id={route.id} />
      ) : route.page === 'inspection' ? (
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

function ConsoleSection({ route, me }: { route: Route; me: Me }) {
  if (
    route.page === 'list' ||
    route.page === 'inspection' ||
    route.page === 'vehicle' ||
    route.page === 'share' ||
    route.page === 'set-password'
  )
    return null;
  if (!mayAdminister(me))
    return (
      <main>
        <p class="notice" role="alert">
          Your account can look at inspections only. Ask an administrator of your organisation for more.
        </p>
      </main>
    );
  const { Page } = CONSOLE[route.page];
  return <Page key={`${route.page}:${route.id ?? ''}`} id={route.id} query={route.query} me={me} />;
}
