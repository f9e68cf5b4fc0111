// The capture flows (personas) the caller may change: a client admin their client's, an operator every
// client's, with a form to start a new one from the photo or video template.
import { useState } from 'preact/hooks';
import { api, errorText, type Me } from '../../../api.js';
import { ErrorNotice, Loading } from '../../../components/notices.js';
import { useClients, useLoad } from '../../../data.js';
import { field } from '../../../form.js';
import { consoleHref } from '../../../router.js';
import { LANGUAGES, type Language, type Persona } from './types.js';

export function PersonaList({ me }: { me: Me }) {
  const operator = me.user.role === 'operator';
  const list = useLoad(() => api.GET('/portal/api/personas'), []);
  const personas = list.data?.personas;
  const clients = useClients(operator).clients ?? [];
  const [failed, setFailed] = useState<string>();
  const error = failed ?? list.error;

  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const name = field(form, 'name');
    try {
      const created = await api.POST('/portal/api/personas', {
        body: {
          // The form offers only the kinds and languages there are.
          kind: field(form, 'kind') as Persona['kind'],
          language: field(form, 'language') as Language,
          ...(name && { name }),
          ...(operator && { client_id: field(form, 'client_id') }),
        },
      });
      location.hash = consoleHref('personas', String(created.id));
    } catch (e) {
      setFailed(errorText(e));
    }
  };

  return (
    <main class="console-page personas">
      <div class="page-head">
        <div>
          <h1>Capture flows</h1>
          <p class="muted">
            What your customers are asked to capture when they open an inspection link: the steps, their
            words, the language and your branding. The id is the <code>personaId</code> of the API.
          </p>
        </div>
      </div>
      <ErrorNotice text={error} />
      {!personas && !error && <Loading />}
      {personas && personas.length === 0 && <p class="empty">No capture flow yet: create one below.</p>}
      {personas && personas.length > 0 && (
        <table class="personas-table">
          <thead>
            <tr>
              <th scope="col">Id</th>
              <th scope="col">Name</th>
              {operator && <th scope="col">Client</th>}
              <th scope="col">Kind</th>
              <th scope="col">Language</th>
              <th scope="col">Steps</th>
            </tr>
          </thead>
          <tbody>
            {personas.map((p) => (
              <tr key={p.id}>
                <td>{p.id}</td>
                <td>
                  <a href={consoleHref('personas', String(p.id))}>{p.name}</a>
                </td>
                {operator && <td>{p.client_name}</td>}
                <td>{p.kind === 'photo' ? 'Photos' : 'Video'}</td>
                <td>{LANGUAGES[p.language as Language] ?? p.language}</td>
                <td>{p.steps}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form class="panel new-persona" onSubmit={(e) => void create(e)}>
        <h2>New capture flow</h2>
        <p class="muted small">
          It starts from a template you then change: the eight walk-around angles, odometer, VIN and plate, or
          one walk-around video.
        </p>
        <div class="fields">
          {operator && (
            <div class="field">
              <label for="new-client">Client</label>
              <select id="new-client" name="client_id" required>
                {clients.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div class="field">
            <label for="new-name">Name</label>
            <input id="new-name" name="name" maxLength={200} placeholder="e.g. Claims walk-around" />
          </div>
          <div class="field">
            <label for="new-kind">Customers capture</label>
            <select id="new-kind" name="kind">
              <option value="photo">Photos, one per step</option>
              <option value="video">One walk-around video</option>
            </select>
          </div>
          <div class="field">
            <label for="new-language">Language</label>
            <select id="new-language" name="language">
              {Object.entries(LANGUAGES).map(([code, name]) => (
                <option key={code} value={code}>
                  {name}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" class="primary">
            Create
          </button>
        </div>
      </form>
    </main>
  );
}
