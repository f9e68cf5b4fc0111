// The console's capture flows (docs/portal.md#the-persona-editor): the list, or the editor of the one in
// the URL (`#/personas/<id>`).
import { PersonaEditor } from './personas/editor.js';
import { PersonaList } from './personas/list.js';
import type { ConsoleProps } from './props.js';

export function PersonasPage(props: ConsoleProps) {
  return props.id === undefined ? <PersonaList me={props.me} /> : <PersonaEditor id={props.id} />;
}
