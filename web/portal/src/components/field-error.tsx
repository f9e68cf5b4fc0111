// A failure where the person can fix it: beside the field it is about, in plain words, with what the API
// said (often written for the operator: settings, environment variables, commands) behind "More".
import { errorText } from '../api.js';

export interface Failure {
  /** The form field's name it is about; none: the form as a whole. */
  field?: string;
  /** What went wrong and what to do, in plain words. */
  plain: string;
  /** The API's own message, for whoever runs the service. */
  detail?: string;
}

/** `pattern` on the API's message → the field and the words for it. */
export type FailureRule = [pattern: RegExp, field: string, plain: string];

/** The failure in plain words, by the first rule whose pattern matches; else the API's message. */
export function failureOf(failure: unknown, rules: FailureRule[]): Failure {
  const message = errorText(failure);
  const rule = rules.find(([pattern]) => pattern.test(message));
  return rule ? { field: rule[1], plain: rule[2], detail: message } : { plain: message };
}

/** The id of a field's error, for the input's `aria-describedby`. */
export const errorId = (field: string) => `${field}-error`;

/** Marks an input as failed and points it to its error, when `failure` is about it. */
export const invalidProps = (failure: Failure | undefined, field: string) =>
  failure?.field === field ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field) } : {};

/** The failure at `field`, when it is about that field (`field` undefined: a failure about no field). */
export function FieldError({ failure, field }: { failure: Failure | undefined; field?: string }) {
  if (!failure || failure.field !== field) return null;
  return (
    <div class="field-error" role="alert" id={field ? errorId(field) : undefined}>
      <p>{failure.plain}</p>
      {failure.detail && (
        <details>
          <summary>More</summary>
          <p class="small">{failure.detail}</p>
        </details>
      )}
    </div>
  );
}
