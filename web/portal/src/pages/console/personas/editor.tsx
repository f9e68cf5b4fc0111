// One capture flow's editor: its steps (order, words per language, outline, required, gallery), video
// length, language and branding, beside a live preview of the customer's screen; changes are saved
// together. The logo is uploaded at once, and a test link opens the saved flow on a phone.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../../api.js';
import {
  errorId,
  failureOf,
  FieldError,
  invalidProps,
  type Failure,
} from '../../../components/field-error.js';
import { ErrorNotice, Loading } from '../../../components/notices.js';
import { useLoad } from '../../../data.js';
import { consoleHref } from '../../../router.js';
import { CapturePreview, type PreviewScreen } from './preview.js';
import { draftFailure, PERSONA_FAILURES, stepOfFailure } from './persona-failures.js';
import { StepList } from './steps.js';
import { TestLinkPanel } from './test-link.js';
import { inLanguage, LANGUAGE_CODES, LANGUAGES, type Language, type Persona } from './types.js';

const LOGO_TYPES = 'image/png,image/jpeg,image/webp';

export function PersonaEditor({ id }: { id: string }) {
  const loaded = useLoad(() => api.GET('/portal/api/personas/{id}', { params: { path: { id } } }), [id]);
  const saved = loaded.data;
  /** The persona with the changes not saved yet; none when there are none. */
  const [edited, setEdited] = useState<Persona>();
  const draft = edited ?? saved;
  const [screen, setScreen] = useState<PreviewScreen>(0);
  const [untranslated, setUntranslated] = useState<string[]>([]);
  /** What the last save or upload did: done, or the failure (at its field when it has one). */
  const [status, setStatus] = useState<
    { kind: 'done'; text: string } | { kind: 'error'; failure: Failure }
  >();
  const failure = status?.kind === 'error' ? status.failure : undefined;
  // The buttons are at the top, the field may be far below: bring it into view and put the cursor in it.
  useEffect(() => {
    if (!failure?.field) return;
    const field = document.querySelector<HTMLElement>('.persona-editor [aria-invalid="true"]');
    const shown = field ?? document.getElementById(errorId(failure.field));
    shown?.scrollIntoView({ block: 'center' });
    field?.focus({ preventScroll: true });
  }, [failure]);
  const [busy, setBusy] = useState(false);

  if (!saved || !draft)
    return (
      <main class="console-page">
        <a class="back" href={consoleHref('personas')}>
          ‹ Capture flows
        </a>
        {loaded.error ? <ErrorNotice text={loaded.error} /> : <Loading />}
      </main>
    );

  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  /** The saved persona's own calls (by its id, as the API gave it). */
  const mine = { path: { id: String(saved.id) } };
  const change = (next: Partial<Persona>) => {
    setEdited({ ...draft, ...next });
    setStatus(undefined);
  };

  const setLanguage = (language: Language) => {
    const translated = inLanguage(draft, language);
    setEdited(translated.persona);
    setUntranslated(translated.untranslated);
  };

  /** Says a failure at its field, and opens the step it is about (where that step's fields are). */
  const refuse = (failure: Failure, step: number | undefined) => {
    setStatus({ kind: 'error', failure });
    if (step !== undefined) setScreen(step);
  };

  /** Saves every change; true when it was saved. */
  const save = async (): Promise<boolean> => {
    const problem = draftFailure(draft);
    if (problem) {
      refuse(problem.failure, problem.step);
      return false;
    }
    setBusy(true);
    try {
      const brandName = draft.branding.name?.trim();
      const answer = await api.PATCH('/portal/api/personas/{id}', {
        params: mine,
        body: {
          name: draft.name,
          language: draft.language as Language,
          steps: draft.steps,
          ...(draft.kind === 'video' && {
            video_min_seconds: draft.video_min_seconds,
            video_max_seconds: draft.video_max_seconds,
          }),
          branding: {
            name: brandName || draft.name,
            ...(draft.branding.colour && { colour: draft.branding.colour }),
          },
          allow_gallery: draft.allow_gallery,
          ask_location: draft.ask_location,
        },
      });
      loaded.set(answer);
      setEdited(undefined);
      setUntranslated([]);
      setStatus({ kind: 'done', text: 'Saved. New links open the flow as it is now.' });
      return true;
    } catch (e) {
      const refused = failureOf(e, PERSONA_FAILURES);
      refuse(refused, stepOfFailure(refused, draft.steps));
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** The logo is its own change, saved at once: the rest of the draft stays as it is. */
  const logo = async (file: File | undefined) => {
    setBusy(true);
    try {
      const answer = await (file
        ? api.POST('/portal/api/personas/{id}/logo', {
            params: mine,
            body: file,
            // The file goes as it is, in its own type (the API tells the image by its bytes).
            bodySerializer: (logo) => logo,
            headers: { 'content-type': file.type || 'application/octet-stream' },
          })
        : api.DELETE('/portal/api/personas/{id}/logo', { params: mine }));
      loaded.set({ ...saved, branding: answer.branding });
      setEdited({ ...draft, branding: { ...draft.branding, logoUrl: answer.branding.logoUrl } });
      setStatus({ kind: 'done', text: file ? 'Logo uploaded.' : 'Logo removed.' });
    } catch (e) {
      setStatus({ kind: 'error', failure: failureOf(e, []) });
    } finally {
      setBusy(false);
    }
  };

  const logoUrl = draft.branding.logoUrl;
  return (
    <main class="console-page persona-editor">
      <a class="back" href={consoleHref('personas')}>
        ‹ Capture flows
      </a>
      <div class="page-head">
        <div>
          <h1>{saved.name}</h1>
          <p class="muted">
            {saved.kind === 'photo' ? 'Photos' : 'Video'} · {saved.client_name} · <code>personaId</code>{' '}
            {saved.id}
          </p>
        </div>
        <div class="head-actions">
          {dirty && <span class="muted">Unsaved changes</span>}
          <button type="button" disabled={!dirty || busy} onClick={() => setEdited(undefined)}>
            Discard changes
          </button>
          <button type="button" class="primary" disabled={!dirty || busy} onClick={() => void save()}>
            Save changes
          </button>
        </div>
      </div>
      {status?.kind === 'done' && (
        <p class="notice done" role="status">
          {status.text}
        </p>
      )}
      <FieldError failure={failure} />
      <div class="editor-columns">
        <div class="editor-form">
          <section class="panel" aria-labelledby="general-title">
            <h2 id="general-title">General</h2>
            <div class="grid-fields">
              <div class="field">
                <label for="p-name">Name (for you; customers see the brand name)</label>
                <input
                  id="p-name"
                  value={draft.name}
                  maxLength={200}
                  onInput={(e) => change({ name: e.currentTarget.value })}
                  {...invalidProps(failure, 'name')}
                />
                <FieldError failure={failure} field="name" />
              </div>
              <div class="field">
                <label for="p-language">Language customers see</label>
                <select
                  id="p-language"
                  value={draft.language}
                  onChange={(e) => setLanguage(e.currentTarget.value as Language)}
                >
                  {LANGUAGE_CODES.map((code) => (
                    <option key={code} value={code}>
                      {LANGUAGES[code]}
                    </option>
                  ))}
                </select>
              </div>
              {draft.kind === 'video' && (
                <>
                  <div class="field">
                    <label for="p-vmin">Shortest video (seconds)</label>
                    <input
                      id="p-vmin"
                      type="number"
                      min={1}
                      max={600}
                      value={draft.video_min_seconds ?? ''}
                      onInput={(e) => change({ video_min_seconds: Number(e.currentTarget.value) || null })}
                      {...invalidProps(failure, 'video_seconds')}
                    />
                  </div>
                  <div class="field">
                    <label for="p-vmax">Longest video (seconds)</label>
                    <input
                      id="p-vmax"
                      type="number"
                      min={1}
                      max={600}
                      value={draft.video_max_seconds ?? ''}
                      onInput={(e) => change({ video_max_seconds: Number(e.currentTarget.value) || null })}
                      {...invalidProps(failure, 'video_seconds')}
                    />
                  </div>
                  <FieldError failure={failure} field="video_seconds" />
                </>
              )}
              <label class="check">
                <input
                  type="checkbox"
                  checked={draft.allow_gallery}
                  onChange={(e) => change({ allow_gallery: e.currentTarget.checked })}
                />{' '}
                Customers may pick {draft.kind === 'photo' ? 'photos' : 'a video'} from their phone's gallery
              </label>
              <label class="check">
                <input
                  type="checkbox"
                  checked={draft.ask_location}
                  onChange={(e) => change({ ask_location: e.currentTarget.checked })}
                />{' '}
                Ask for the customer's location
              </label>
            </div>
            {untranslated.length > 0 && (
              <p class="notice small" role="status">
                {untranslated.length === 1 ? 'One step has' : `${untranslated.length} steps have`} no words in{' '}
                {LANGUAGES[draft.language as Language]} yet and keep{untranslated.length === 1 ? 's' : ''}{' '}
                {untranslated.length === 1 ? 'its' : 'their'} current words: {untranslated.join(', ')}. Write
                them below.
              </p>
            )}
          </section>

          <section class="panel" aria-labelledby="branding-title">
            <h2 id="branding-title">Branding</h2>
            <div class="grid-fields">
              <div class="field">
                <label for="p-brand">Brand name customers see</label>
                <input
                  id="p-brand"
                  value={draft.branding.name ?? ''}
                  maxLength={200}
                  onInput={(e) => change({ branding: { ...draft.branding, name: e.currentTarget.value } })}
                />
              </div>
              <div class="field">
                <label for="p-colour">Colour of buttons and bars</label>
                <input
                  id="p-colour"
                  type="color"
                  value={draft.branding.colour ?? '#0a5cd6'}
                  onInput={(e) => change({ branding: { ...draft.branding, colour: e.currentTarget.value } })}
                />
              </div>
            </div>
            <div class="logo-field">
              <span class="logo-box">
                {logoUrl?.startsWith('/') ? (
                  <img src={logoUrl} alt="Current logo" />
                ) : logoUrl ? (
                  <span class="muted small">Logo at {logoUrl}</span>
                ) : (
                  <span class="muted small">No logo</span>
                )}
              </span>
              <label class="button">
                {logoUrl ? 'Replace the logo…' : 'Upload a logo…'}
                <input
                  type="file"
                  accept={LOGO_TYPES}
                  class="sr-only"
                  disabled={busy}
                  onChange={(e) => {
                    const input = e.currentTarget;
                    const file = input.files?.[0];
                    input.value = '';
                    if (file) void logo(file);
                  }}
                />
              </label>
              {logoUrl && (
                <button type="button" class="danger" disabled={busy} onClick={() => void logo(undefined)}>
                  Remove the logo
                </button>
              )}
            </div>
            <p class="muted small">
              PNG, JPEG or WebP, at most 2 MB; it is saved at once, scaled to fit 1024 × 512 pixels.
              {logoUrl &&
                !logoUrl.startsWith('/') &&
                ' A logo at another address is not shown in this preview.'}
            </p>
          </section>

          <StepList
            persona={draft}
            selected={typeof screen === 'number' ? screen : undefined}
            onSelect={setScreen}
            onChange={(steps) => change({ steps })}
            failure={failure}
          />
        </div>

        <aside class="editor-side" aria-label="Preview and test link">
          <div class="preview-tabs" role="group" aria-label="Screen shown in the preview">
            <button type="button" aria-pressed={screen === 'welcome'} onClick={() => setScreen('welcome')}>
              Welcome screen
            </button>
            <button
              type="button"
              aria-pressed={typeof screen === 'number'}
              onClick={() => setScreen(typeof screen === 'number' ? screen : 0)}
            >
              Step screen
            </button>
          </div>
          <CapturePreview persona={draft} screen={screen} />
          <TestLinkPanel personaId={draft.id} dirty={dirty} save={save} />
        </aside>
      </div>
    </main>
  );
}
