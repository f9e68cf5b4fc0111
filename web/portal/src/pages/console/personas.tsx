// The console's capture flows (docs/portal.md#the-persona-editor): the list, or the editor of the one in
// the URL (`#/personas/<id>`). The editor brings the capture app's screens, outlines, words and styles
// for its preview: it is a chunk of its own, loaded when opened, so the rest of the portal stays as small.
import { useEffect, useState } from 'preact/hooks';
import type { PersonaEditor } from './personas/editor.js';
import { PersonaList } from './personas/list.js';
import type { ConsoleProps } from './props.js';

export function PersonasPage(props: ConsoleProps) {
  return props.id === undefined ? <PersonaList me={props.me} /> : <LazyEditor id={props.id} />;
}

function LazyEditor({ id }: { id: string }) {
  const [Editor, setEditor] = useState<typeof PersonaEditor>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./personas/editor.js').then(
      (loaded) => setEditor(() => loaded.PersonaEditor),
      () => setFailed(true),
    );
  }, []);
  if (Editor) return <Editor id={id} />;
  return (
    <main class="console-page">
      {failed ? (
        <p class="error" role="alert">
          The editor could not be loaded. Check your connection and reload the page.
        </p>
      ) : (
        <p class="loading" role="status">
          Loading…
        </p>
      )}
    </main>
  );
}
