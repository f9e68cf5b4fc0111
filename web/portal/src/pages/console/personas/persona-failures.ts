// A capture flow refused by the API (PERSONA_INVALID, docs/errors.md), said at the field to change in
// words an operator acts on; the API's message (step ids, bounds written as formulas) stays behind "More".
import type { Failure, FailureRule } from '../../../components/field-error.js';
import type { Persona } from './types.js';

const WORDS = {
  name: 'Give the capture flow a name.',
  video:
    'The shortest video must be at least 1 second and no longer than the longest, which can be at most 600 seconds (10 minutes).',
  required: 'Make at least one step required, or a customer could send nothing at all.',
  title: 'Give this step a title, of at most 100 characters.',
};
const VIDEO_MAX_SECONDS = 600;

export const PERSONA_FAILURES: FailureRule[] = [
  [/^name must be/, 'name', WORDS.name],
  [/^video length bounds/, 'video_seconds', WORDS.video],
  [/^steps must hold/, 'steps', 'A capture flow has 1 to 50 steps.'],
  [/^at least one step must be required/, 'steps', WORDS.required],
  [/^step "[^"]*" needs a label/, 'step_label', WORDS.title],
  [/^step "[^"]*" instructions/, 'step_instructions', 'Keep the instructions to at most 1000 characters.'],
  [
    /^step "[^"]*" \S+ words need/,
    'step_translations',
    'Each translation of this step needs a title (at most 100 characters), and instructions of at most 1000.',
  ],
  [/^step id "[^"]*" appears twice/, 'steps', 'Two steps have the same id: remove one of them.'],
];

/** The index of the step a failure is about (the API names it by id), if any. */
export function stepOfFailure(failure: Failure, steps: readonly { id: string }[]): number | undefined {
  const id = /^step (?:id )?"([^"]*)"/.exec(failure.detail ?? '')?.[1];
  const index = steps.findIndex((step) => step.id === id);
  return index >= 0 ? index : undefined;
}

/**
 * What is wrong with a draft before it is sent, as the API would refuse it (its schema refuses an
 * empty title with a bare "Bad request"); `step`: the step to open, where the field is.
 */
export function draftFailure(draft: Persona): { failure: Failure; step?: number } | undefined {
  if (draft.name.trim() === '') return { failure: { field: 'name', plain: WORDS.name } };
  const untitled = draft.steps.findIndex((step) => step.label.trim() === '');
  if (untitled >= 0) return { failure: { field: 'step_label', plain: WORDS.title }, step: untitled };
  if (!draft.steps.some((step) => step.required))
    return { failure: { field: 'steps', plain: WORDS.required } };
  if (draft.kind === 'video') {
    const min = draft.video_min_seconds ?? 1;
    const max = draft.video_max_seconds ?? VIDEO_MAX_SECONDS;
    if (min < 1 || min > max || max > VIDEO_MAX_SECONDS)
      return { failure: { field: 'video_seconds', plain: WORDS.video } };
  }
  return undefined;
}
