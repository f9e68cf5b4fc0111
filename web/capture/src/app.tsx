// The capture app: opens the link, then one screen at a time — welcome, one per step, review, done —
// or the page that says why the link cannot be used.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { LinkError, type LinkProblem } from './api.js';
import { warmCamera } from './camera.js';
import { reportUploads, tellParent } from './embed.js';
import { useChanges, useOffline } from './hooks.js';
import { chooseLanguage, type Translate } from './i18n/index.js';
import { useLanguage } from './i18n/use-language.js';
import { PhotoStep } from './screens/photo-step.js';
import { Problem } from './screens/problem.js';
import { Review } from './screens/review.js';
import { VideoStep } from './screens/video-step.js';
import { Welcome } from './screens/welcome.js';
import { Done } from './screens/done.js';
import { Session } from './session.js';
import { applyBrand } from './theme.js';

type Screen =
  | { name: 'loading' }
  | { name: 'problem'; problem: LinkProblem }
  | { name: 'welcome' }
  | { name: 'step'; fromReview?: boolean; retake?: boolean }
  | { name: 'review' }
  | { name: 'done' };

export function App({ token }: { token: string | undefined }) {
  const [screen, setScreen] = useState<Screen>({ name: 'loading' });
  const [session, setSession] = useState<Session>();
  const { t, speak } = useLanguage();
  const offline = useOffline();
  useChanges(session);

  // The browser's language for the loading and problem pages, fetched while the link's flow is.
  const browserLanguage = useRef<Promise<void>>(Promise.resolve());
  /** The problem page, once it can be said in the browser's language (never a flash of English). */
  const showProblem = (problem: LinkProblem) =>
    void browserLanguage.current.then(() => setScreen({ name: 'problem', problem }));

  const open = () => {
    setScreen({ name: 'loading' });
    if (!token) return showProblem('unknown');
    Session.open(token).then(
      async (opened) => {
        await speak(chooseLanguage(opened.flow.persona.language, navigator.languages));
        setSession(opened);
        reportUploads(opened);
        applyBrand(opened.flow.persona.branding.colour);
        setScreen({ name: 'welcome' });
      },
      (error: unknown) => {
        const problem = error instanceof LinkError ? error.problem : 'network';
        tellParent({ type: 'error', code: problem === 'network' ? 'network' : `link_${problem}` });
        showProblem(problem);
      },
    );
  };
  useEffect(() => {
    browserLanguage.current = speak(chooseLanguage(undefined, navigator.languages));
  }, []);
  useEffect(open, [token]);
  useEffect(() => {
    document.title = session?.flow.persona.branding.name ?? t('app.title');
  }, [session, t]);

  /** After a step: the next one, or back to the review when the step was retaken from there. */
  const next = async (from: number, fromReview: boolean) => {
    if (!session) return;
    const taken = session.steps[from];
    if (taken && session.captures.has(taken.id))
      tellParent({ type: 'step_taken', step: taken.id, index: from });
    const index = fromReview ? session.steps.length : from + 1;
    await session.goTo(index);
    setScreen(screenAt(index, session));
  };

  let body: ComponentChildren;
  if (screen.name === 'loading') body = <Loading t={t} />;
  else if (screen.name === 'problem') body = <Problem problem={screen.problem} t={t} onRetry={open} />;
  else if (screen.name === 'done')
    body = <Done t={t} name={brandName(session, t)} reference={session?.flow.case_id} />;
  else if (!session) body = <Loading t={t} />;
  else if (screen.name === 'welcome')
    body = (
      <Welcome
        session={session}
        t={t}
        onStart={() => {
          // The camera starts while the step's screen is drawn, not after.
          warmCamera(session.flow.persona.kind);
          tellParent({ type: 'started', kind: session.flow.persona.kind, steps: session.steps.length });
          session.watchLocation();
          const index = Math.min(session.progress.stepIndex, session.steps.length);
          void session.goTo(index).then(() => setScreen(screenAt(index, session)));
        }}
      />
    );
  else if (screen.name === 'step' && session.steps[session.progress.stepIndex]) {
    const index = session.progress.stepIndex;
    const step = session.steps[index]!;
    const StepScreen = session.flow.persona.kind === 'video' ? VideoStep : PhotoStep;
    body = (
      <StepScreen
        key={step.id}
        session={session}
        step={step}
        index={index}
        t={t}
        retake={screen.retake === true}
        onDone={() => void next(index, screen.fromReview === true)}
        onBack={() =>
          index === 0
            ? setScreen({ name: 'welcome' })
            : void session.goTo(index - 1).then(() => setScreen({ name: 'step' }))
        }
      />
    );
  } else
    body = (
      <Review
        session={session}
        t={t}
        onTake={(index) =>
          void session.goTo(index).then(() => setScreen({ name: 'step', fromReview: true, retake: true }))
        }
        onSubmitted={() => {
          tellParent({ type: 'submitted' });
          setScreen({ name: 'done' });
        }}
        onGone={(problem) => setScreen({ name: 'problem', problem })}
      />
    );

  return (
    <div class="app" data-screen={screen.name} data-offline={offline || undefined}>
      {offline && (
        <p class="offline" role="status">
          {t('offline.banner')}
        </p>
      )}
      {body}
    </div>
  );
}

const screenAt = (index: number, session: Session): Screen =>
  index >= session.steps.length ? { name: 'review' } : { name: 'step' };

const brandName = (session: Session | undefined, t: Translate) =>
  session?.flow.persona.branding.name ?? session?.flow.persona.name ?? t('app.title');

function Loading({ t }: { t: Translate }) {
  return (
    <main class="page center">
      <div class="spinner" aria-hidden="true" />
      <p role="status">{t('app.loading')}</p>
    </main>
  );
}
