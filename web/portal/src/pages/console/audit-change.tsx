// An audit entry's change in words: the settings that changed, before and after, and a capture flow's
// steps as a step-by-step list (added, removed, moved, changed and how) instead of their JSON.
const STEP_FIELDS: Record<string, string> = {
  label: 'name',
  instructions: 'instructions',
  required: 'required',
  overlay: 'outline',
  accept_poor_quality: 'poor photos kept',
  translations: 'translations',
};

interface Step {
  id: string;
  label?: string;
  [field: string]: unknown;
}

const isSteps = (value: unknown): value is Step[] =>
  Array.isArray(value) &&
  value.every((s) => typeof s === 'object' && s !== null && typeof (s as Step).id === 'string');

/** A recorded value in words: yes/no, "none", an object as its fields, a list as its items. */
export function shown(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.map(shown).join(', ');
  if (typeof value === 'object') {
    const fields = Object.entries(value as Record<string, unknown>);
    return fields.length === 0 ? 'none' : fields.map(([k, v]) => `${k}: ${shown(v)}`).join('; ');
  }
  // Numbers (and what else JSON holds) as JSON writes them.
  return JSON.stringify(value) ?? '';
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The settings that changed, before and after; everything recorded for a creation. */
export function Change({ before, after }: { before: unknown; after: unknown }) {
  if (before === null && after === null)
    return <p class="muted small">No settings recorded for this change.</p>;
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const names = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (name) => before === null || after === null || !same(b[name], a[name]),
  );
  if (names.length === 0) return <p class="muted small">Nothing changed in the recorded settings.</p>;
  const columns = (before !== null ? 1 : 0) + (after !== null ? 1 : 0);
  return (
    <table class="audit-change">
      <thead>
        <tr>
          <th scope="col">Setting</th>
          {before !== null && <th scope="col">Before</th>}
          {after !== null && <th scope="col">After</th>}
        </tr>
      </thead>
      <tbody>
        {names.map((name) => (
          <tr key={name}>
            <th scope="row">{name.replaceAll('_', ' ')}</th>
            {name === 'steps' && (isSteps(b[name]) || isSteps(a[name])) ? (
              <td colSpan={columns}>
                <StepsDiff before={isSteps(b[name]) ? b[name] : []} after={isSteps(a[name]) ? a[name] : []} />
              </td>
            ) : (
              <>
                {before !== null && <td>{shown(b[name])}</td>}
                {after !== null && <td>{shown(a[name])}</td>}
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type StepChange =
  | { kind: 'added' | 'removed'; step: Step; position: number }
  | { kind: 'changed'; step: Step; position: number; from: number; fields: [string, unknown, unknown][] };

/** Steps matched by id: those added, removed, and those moved or with other fields. */
export function stepChanges(before: Step[], after: Step[]): { changes: StepChange[]; unchanged: number } {
  const earlier = new Map(before.map((step, i) => [step.id, { step, position: i + 1 }]));
  const later = new Set(after.map((step) => step.id));
  const changes: StepChange[] = [];
  let unchanged = 0;
  after.forEach((step, i) => {
    const was = earlier.get(step.id);
    if (!was) return void changes.push({ kind: 'added', step, position: i + 1 });
    const fields = [...new Set([...Object.keys(was.step), ...Object.keys(step)])]
      .filter((field) => field !== 'id' && !same(was.step[field], step[field]))
      .map((field): [string, unknown, unknown] => [field, was.step[field], step[field]]);
    // A step moved only because one before it was added or removed is not a change of its own.
    const shift =
      before.slice(0, was.position - 1).filter((s) => !later.has(s.id)).length -
      after.slice(0, i).filter((s) => !earlier.has(s.id)).length;
    const moved = was.position - shift !== i + 1;
    if (fields.length === 0 && !moved) unchanged++;
    else changes.push({ kind: 'changed', step, position: i + 1, from: was.position, fields });
  });
  before.forEach((step, i) => {
    if (!later.has(step.id)) changes.push({ kind: 'removed', step, position: i + 1 });
  });
  return { changes, unchanged };
}

const KIND_WORDS = { added: 'Added', removed: 'Removed', changed: 'Changed' } as const;

/** A capture flow's steps before and after, one line per step that changed. */
function StepsDiff({ before, after }: { before: Step[]; after: Step[] }) {
  const { changes, unchanged } = stepChanges(before, after);
  return (
    <>
      <ol class="steps-diff">
        {changes.map((change) => (
          <li key={`${change.kind}:${change.step.id}`} class={`step-${change.kind}`}>
            <span class={`step-kind ${change.kind}`}>{KIND_WORDS[change.kind]}</span>{' '}
            <span>
              step {change.position} <b>{change.step.label ?? change.step.id}</b>{' '}
              <code class="muted">{change.step.id}</code>
              {change.kind === 'changed' && change.from !== change.position && (
                <> (moved from {change.from})</>
              )}
            </span>
            {change.kind === 'changed' && change.fields.length > 0 && (
              <ul>
                {change.fields.map(([field, was, is]) => (
                  <li key={field}>
                    {STEP_FIELDS[field] ?? field.replaceAll('_', ' ')}: <del>{shown(was)}</del> →{' '}
                    <ins>{shown(is)}</ins>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {unchanged > 0 && (
        <p class="muted small">
          {unchanged === 1 ? '1 other step unchanged.' : `${unchanged} other steps unchanged.`}
        </p>
      )}
    </>
  );
}
