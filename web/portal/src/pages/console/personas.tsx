// The console's capture flows (docs/portal.md#the-persona-editor): the list, or the editor of the one in
// the URL (`#/personas/<id>`). The editor brings the capture app's screens, outlines, words and styles
// for its preview: it is a chunk of its own, loaded when opened, so the rest of the portal stays as small.
import { ErrorNotice, Loading } from '../../components/notices.js';
import { useLoad } from '../../data.js';
import { PersonaList } from './personas/list.js';
import type { ConsoleProps } from './props.js';

export function PersonasPage(props: ConsoleProps) {
  return props.id === undefined ? <PersonaList me={props.me} /> : <LazyEditor id={props.id} />;
}

function LazyEditor({ id }: { id: string }) {
  const chunk = useLoad(() => import('./personas/editor.js'), [], {
    describe: () => 'The editor could not be loaded. Check your connection and reload the page.',
  });
  const Editor = chunk.data?.PersonaEditor;
  if (Editor) return <Editor id={id} />;
  return <main class="console-page">{chunk.error ? <ErrorNotice text={chunk.error} /> : <Loading />}</main>;
}
