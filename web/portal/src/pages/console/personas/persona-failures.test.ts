import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api.js';
import { failureOf } from '../../../components/field-error.js';
import { draftFailure, PERSONA_FAILURES, stepOfFailure } from './persona-failures.js';
import type { Persona } from './types.js';

const steps = [
  { id: 'front', label: 'Front', instructions: '', required: true, overlay: 'front' },
  { id: 'vin', label: 'VIN', instructions: '', required: false, overlay: 'vin' },
];
const draft = { name: 'Check-in', kind: 'photo', steps } as unknown as Persona;
/** The failure of a save the API refused with `message` (PERSONA_INVALID). */
const refused = (message: string) => failureOf(new ApiError(400, message), PERSONA_FAILURES);

describe('a capture flow the API refused', () => {
  it('is said at the field to change, the API’s words kept for More', () => {
    expect(refused('name must be 1 to 200 characters')).toEqual({
      field: 'name',
      plain: 'Give the capture flow a name.',
      detail: 'name must be 1 to 200 characters',
    });
    expect(refused('at least one step must be required').field).toBe('steps');
    expect(refused('video length bounds must be whole seconds with 1 <= min <= max <= 600').field).toBe(
      'video_seconds',
    );
    expect(refused('step "vin" instructions must be text of at most 1000 characters').field).toBe(
      'step_instructions',
    );
  });

  it('opens the step the API named', () => {
    expect(stepOfFailure(refused('step "vin" needs a label of at most 100 characters'), steps)).toBe(1);
    expect(stepOfFailure(refused('step id "front" appears twice'), steps)).toBe(0);
    expect(stepOfFailure(refused('name must be 1 to 200 characters'), steps)).toBeUndefined();
  });

  it('keeps a message no rule knows as it is, about the form as a whole', () => {
    expect(refused('Something else')).toEqual({ plain: 'Something else' });
  });
});

describe('a draft checked before it is sent', () => {
  it('passes a good one', () => {
    expect(draftFailure(draft)).toBeUndefined();
  });

  it('names the field, and the step to open', () => {
    expect(draftFailure({ ...draft, name: ' ' })?.failure.field).toBe('name');
    const untitled = { ...draft, steps: [steps[0]!, { ...steps[1]!, label: '' }] } as Persona;
    expect(draftFailure(untitled)).toMatchObject({ failure: { field: 'step_label' }, step: 1 });
    const optional = { ...draft, steps: steps.map((s) => ({ ...s, required: false })) } as Persona;
    expect(draftFailure(optional)?.failure.field).toBe('steps');
    const video = { ...draft, kind: 'video', video_min_seconds: 30, video_max_seconds: 20 } as Persona;
    expect(draftFailure(video)?.failure.field).toBe('video_seconds');
  });
});
