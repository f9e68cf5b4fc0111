// The steps of a capture flow: in order, each with its words (in the flow's language, and in the others
// for when it changes), its outline, whether it is required and whether a poor photo may be kept. Moved
// with buttons (keyboard and screen readers alike), added at the end, removed.
import { OVERLAY_NAMES } from '../../../../../capture/src/overlays/index.js';
import { FieldError, invalidProps, type Failure } from '../../../components/field-error.js';
import { LANGUAGE_CODES, LANGUAGES, type Language, type Persona, type Step, type Words } from './types.js';

/** The outlines by what a person calls them; `frame` has no art of its own: corner brackets. */
const OVERLAY_TITLES: Record<string, string> = {
  front: 'Car: front',
  front_right: 'Car: front right corner',
  right: 'Car: right side',
  rear_right: 'Car: rear right corner',
  rear: 'Car: rear',
  rear_left: 'Car: rear left corner',
  left: 'Car: left side',
  front_left: 'Car: front left corner',
  odometer: 'Odometer',
  vin: 'VIN plate',
  plate: 'Number plate',
  walkaround: 'Walk-around path (video)',
  frame: 'Corner brackets only',
};
const OVERLAYS = [...OVERLAY_NAMES, 'frame'];

/** A step id from its label, unique in the flow (the API's rule: lowercase letters, digits, _ and -). */
function newStepId(steps: Step[]): string {
  const taken = new Set(steps.map((s) => s.id));
  let n = steps.length + 1;
  while (taken.has(`step_${n}`)) n++;
  return `step_${n}`;
}

export function StepList(props: {
  persona: Persona;
  selected: number | undefined;
  onSelect: (index: number) => void;
  onChange: (steps: Step[]) => void;
  /** The last save's failure: shown here when it is about the steps or the selected step's fields. */
  failure: Failure | undefined;
}) {
  const { persona, selected, failure } = props;
  const steps = persona.steps;
  const language = persona.language as Language;

  const update = (index: number, next: Partial<Step>) =>
    props.onChange(steps.map((step, i) => (i === index ? { ...step, ...next } : step)));
  const move = (index: number, by: -1 | 1) => {
    const to = index + by;
    if (to < 0 || to >= steps.length) return;
    const next = [...steps];
    [next[index], next[to]] = [next[to]!, next[index]!];
    props.onChange(next);
    props.onSelect(to);
  };
  const remove = (index: number) => {
    props.onChange(steps.filter((_, i) => i !== index));
    props.onSelect(Math.max(0, Math.min(index, steps.length - 2)));
  };
  const add = () => {
    props.onChange([
      ...steps,
      {
        id: newStepId(steps),
        label: '',
        instructions: '',
        required: true,
        overlay: 'frame',
        accept_poor_quality: true,
      },
    ]);
    props.onSelect(steps.length);
  };
  const translate = (index: number, code: Language, words: Words) => {
    const step = steps[index]!;
    const translations = { ...step.translations };
    if (words.label.trim() === '' && words.instructions.trim() === '') delete translations[code];
    else translations[code] = words;
    update(index, { translations });
  };

  return (
    <section class="panel" aria-labelledby="steps-title">
      <div class="section-head">
        <h2 id="steps-title">Steps</h2>
        <span class="muted small">
          In the order customers take them. Edit a step to change it and see it in the preview.
        </span>
      </div>
      <FieldError failure={failure} field="steps" />
      <ol class="steps">
        {steps.map((step, index) => (
          <li
            key={step.id}
            class={index === selected ? 'step-card selected' : 'step-card'}
            data-step-id={step.id}
          >
            <div class="step-head">
              <span class="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <strong class="step-title">{step.label || 'New step'}</strong>
              {index !== selected && (
                <span class="muted small step-summary">
                  {OVERLAY_TITLES[step.overlay] ?? OVERLAY_TITLES.frame}
                  {step.required ? '' : ' · optional'}
                </span>
              )}
              <span class="step-tools">
                {index !== selected && (
                  <button
                    type="button"
                    aria-label={`Edit “${step.label || step.id}”`}
                    onClick={() => props.onSelect(index)}
                  >
                    Edit
                  </button>
                )}
                <button
                  type="button"
                  aria-label={`Move “${step.label || step.id}” up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move “${step.label || step.id}” down`}
                  disabled={index === steps.length - 1}
                  onClick={() => move(index, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="danger"
                  aria-label={`Remove “${step.label || step.id}”`}
                  disabled={steps.length === 1}
                  onClick={() => remove(index)}
                >
                  Remove
                </button>
              </span>
            </div>
            {index === selected && (
              <>
                <div class="grid-fields">
                  <div class="field">
                    <label for={`s-${index}-label`}>Title ({LANGUAGES[language]})</label>
                    <input
                      id={`s-${index}-label`}
                      value={step.label}
                      maxLength={100}
                      required
                      onInput={(e) => update(index, { label: e.currentTarget.value })}
                      {...invalidProps(failure, 'step_label')}
                    />
                    <FieldError failure={failure} field="step_label" />
                  </div>
                  <div class="field">
                    <label for={`s-${index}-overlay`}>Outline over the camera</label>
                    <select
                      id={`s-${index}-overlay`}
                      value={OVERLAYS.includes(step.overlay) ? step.overlay : 'frame'}
                      onChange={(e) => update(index, { overlay: e.currentTarget.value })}
                    >
                      {OVERLAYS.map((name) => (
                        <option key={name} value={name}>
                          {OVERLAY_TITLES[name] ?? name}
                        </option>
                      ))}
                    </select>
                  </div>
                  <div class="field wide">
                    <label for={`s-${index}-instructions`}>Instructions ({LANGUAGES[language]})</label>
                    <textarea
                      id={`s-${index}-instructions`}
                      value={step.instructions}
                      maxLength={1000}
                      rows={2}
                      onInput={(e) => update(index, { instructions: e.currentTarget.value })}
                      {...invalidProps(failure, 'step_instructions')}
                    />
                    <FieldError failure={failure} field="step_instructions" />
                  </div>
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={step.required}
                      onChange={(e) => update(index, { required: e.currentTarget.checked })}
                    />{' '}
                    Required (else customers may skip it)
                  </label>
                  {persona.kind === 'photo' && (
                    <label class="check">
                      <input
                        type="checkbox"
                        checked={step.accept_poor_quality}
                        onChange={(e) => update(index, { accept_poor_quality: e.currentTarget.checked })}
                      />{' '}
                      A blurred or dark photo may be kept anyway
                    </label>
                  )}
                </div>
                <FieldError failure={failure} field="step_translations" />
                <details class="translations">
                  <summary>
                    Words in other languages (
                    {LANGUAGE_CODES.filter((c) => c !== language && step.translations?.[c])
                      .map((c) => LANGUAGES[c])
                      .join(', ') || 'none'}
                    )
                  </summary>
                  <p class="muted small">Used when you change the flow's language.</p>
                  {LANGUAGE_CODES.filter((code) => code !== language).map((code) => {
                    const words = step.translations?.[code] ?? { label: '', instructions: '' };
                    return (
                      <div class="grid-fields" key={code}>
                        <div class="field">
                          <label for={`s-${index}-${code}-label`}>Title ({LANGUAGES[code]})</label>
                          <input
                            id={`s-${index}-${code}-label`}
                            lang={code}
                            value={words.label}
                            maxLength={100}
                            onInput={(e) =>
                              translate(index, code, { ...words, label: e.currentTarget.value })
                            }
                          />
                        </div>
                        <div class="field">
                          <label for={`s-${index}-${code}-instructions`}>
                            Instructions ({LANGUAGES[code]})
                          </label>
                          <input
                            id={`s-${index}-${code}-instructions`}
                            lang={code}
                            value={words.instructions}
                            maxLength={1000}
                            onInput={(e) =>
                              translate(index, code, { ...words, instructions: e.currentTarget.value })
                            }
                          />
                        </div>
                      </div>
                    );
                  })}
                  <p class="muted small">
                    Step id <code>{step.id}</code> (in results and webhooks).
                  </p>
                </details>
              </>
            )}
          </li>
        ))}
      </ol>
      <button type="button" onClick={add}>
        Add a step
      </button>
    </section>
  );
}
