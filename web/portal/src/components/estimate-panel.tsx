// The repair estimate of the inspection page (docs/estimate.md#in-the-portal): one line per part from the
// client's rate card, what a reviewer changed beside what the rules gave, the totals and the total-loss
// verdict. In review, each line's operation, hours and part price can be changed, lines removed or added;
// the changes are saved with the review, as a new version, and priced then.
import { useState } from 'preact/hooks';
import type { InspectionResult } from '../api.js';
import { count } from '../format.js';

type Estimate = NonNullable<InspectionResult['estimate']>;
type Line = Estimate['lines'][number];
export type Adjustment = Estimate['adjustments'][number];
type Operation = Line['operation'];

const OPERATIONS: Operation[] = [
  'polish',
  'paintless_repair',
  'smart_repair',
  'glass_repair',
  'wheel_refurbish',
  'repair_and_paint',
  'replace',
  'replace_and_paint',
];
const words = (text: string) => text.replaceAll('_', ' ');

export function EstimatePanel(props: {
  estimate: Estimate;
  /** Review mode: the lines can be changed. */
  editing: boolean;
  adjustments: Adjustment[];
  onAdjust: (adjustments: Adjustment[]) => void;
  csvHref: string;
}) {
  const { estimate, editing } = props;
  const money = new Intl.NumberFormat('en-GB', { style: 'currency', currency: estimate.currency });
  const [newPart, setNewPart] = useState('');

  /** The reviewer's change of one field of a part's line, merged into its adjustment. */
  const adjust = (part: string, change: Partial<Adjustment>) => {
    const others = props.adjustments.filter((a) => a.part !== part);
    const current = props.adjustments.find((a) => a.part === part) ?? { part };
    props.onAdjust([...others, { ...current, ...change }]);
  };
  /** A new operation brings its own hours and part price (priced on save), unless typed after. */
  const changeOperation = (part: string, operation: Operation) => {
    const current = props.adjustments.find((a) => a.part === part) ?? { part };
    const { labour_hours: _hours, parts_cost: _price, ...rest } = current;
    props.onAdjust([...props.adjustments.filter((a) => a.part !== part), { ...rest, operation }]);
  };
  /** What an input shows: the reviewer's figure, none after a new operation (its own), else the line's. */
  const shown = (line: Line, field: 'labour_hours' | 'parts_cost') => {
    const adjustment = props.adjustments.find((a) => a.part === line.part);
    if (adjustment?.[field] !== undefined) return adjustment[field];
    return adjustment?.operation !== undefined && adjustment.operation !== line.operation ? '' : line[field];
  };
  /** The input of a figure a reviewer may set on a line (an empty one: the operation's own). */
  const figureInput = (line: Line, field: 'labour_hours' | 'parts_cost', label: string, step: number) => (
    <input
      type="number"
      min={0}
      step={step}
      aria-label={label}
      placeholder="auto"
      value={shown(line, field)}
      onChange={(e) => adjust(line.part!, { [field]: Number(e.currentTarget.value) })}
    />
  );
  const removed = (part: string | null) => props.adjustments.some((a) => a.part === part && a.removed);
  const remove = (line: Line) => {
    if (line.part === null) return;
    const added = props.adjustments.find((a) => a.part === line.part)?.added;
    props.onAdjust(
      added
        ? props.adjustments.filter((a) => a.part !== line.part)
        : [...props.adjustments.filter((a) => a.part !== line.part), { part: line.part, removed: true }],
    );
  };
  const pending = props.adjustments.filter(
    (a) => JSON.stringify(a) !== JSON.stringify(estimate.adjustments.find((b) => b.part === a.part)),
  ).length;

  return (
    <section class="panel estimate-panel" aria-labelledby="estimate-title">
      <h2 id="estimate-title">Repair estimate</h2>
      {estimate.rate_card_version === 0 && (
        <p class="notice">
          Example rates: this client has not set its own rate card yet (console, Settings).
        </p>
      )}
      {estimate.lines.length === 0 && !editing ? (
        <p>No damage to price: the estimate is {money.format(0)}.</p>
      ) : (
        <div class="table-scroll">
          <table class="estimate">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Operation</th>
                <th scope="col" class="number">
                  Labour
                </th>
                <th scope="col" class="number">
                  Paint
                </th>
                <th scope="col" class="number">
                  Parts
                </th>
                <th scope="col" class="number">
                  Total
                </th>
                {editing && (
                  <th scope="col">
                    <span class="sr-only">Remove</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {estimate.lines.map((line, i) => (
                <tr key={line.part ?? i} class={removed(line.part) ? 'removed' : undefined}>
                  <td>
                    {line.part ? words(line.part) : 'unknown part'}
                    {line.part_source === 'suggested' && <span class="muted small"> (suggested)</span>}
                  </td>
                  <td>
                    {editing && line.part !== null ? (
                      <select
                        aria-label={`Operation on ${words(line.part)}`}
                        value={
                          props.adjustments.find((a) => a.part === line.part)?.operation ?? line.operation
                        }
                        onChange={(e) => changeOperation(line.part!, e.currentTarget.value as Operation)}
                      >
                        {OPERATIONS.map((o) => (
                          <option key={o} value={o}>
                            {words(o)}
                          </option>
                        ))}
                      </select>
                    ) : (
                      words(line.operation)
                    )}
                    {line.rules && (
                      <span class="muted small changed">
                        {' '}
                        changed; the rules gave {words(line.rules.operation)}
                      </span>
                    )}
                    {!line.rules && line.source === 'reviewer' && <span class="muted small"> added</span>}
                  </td>
                  <td class="number">
                    {editing && line.part !== null
                      ? figureInput(line, 'labour_hours', `Labour hours on ${words(line.part)}`, 0.1)
                      : `${line.labour_hours} h`}{' '}
                    {money.format(line.labour_cost)}
                  </td>
                  <td class="number">
                    {line.paint_hours} h {money.format(line.paint_cost)}
                  </td>
                  <td class="number">
                    {editing && line.part !== null
                      ? figureInput(line, 'parts_cost', `Part price of ${words(line.part)}`, 0.01)
                      : money.format(line.parts_cost)}
                    {line.price_missing && (
                      <span class="muted small" title="No price on the rate card">
                        {' '}
                        *
                      </span>
                    )}
                  </td>
                  <td class="number">{money.format(line.total)}</td>
                  {editing && (
                    <td>
                      {line.part !== null && !removed(line.part) && (
                        <button type="button" class="quiet" onClick={() => remove(line)}>
                          Remove
                        </button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total
                </th>
                <td class="number">{money.format(estimate.labour_total)}</td>
                <td class="number">{money.format(estimate.paint_total)}</td>
                <td class="number">{money.format(estimate.parts_total)}</td>
                <td class="number">
                  <strong>{money.format(estimate.total)}</strong>
                </td>
                {editing && <td />}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      {estimate.total_loss !== null && (
        <p class={estimate.total_loss ? 'warning' : undefined}>
          {estimate.total_loss ? 'Total loss: ' : 'Not a total loss: '}
          the total against a vehicle value of {money.format(estimate.vehicle_value ?? 0)}.
        </p>
      )}
      {editing && (
        <div class="add-line">
          <label for="estimate-new-part">Add a line for a part</label>
          <input
            id="estimate-new-part"
            value={newPart}
            placeholder="e.g. grille"
            onInput={(e) => setNewPart(e.currentTarget.value)}
          />
          <button
            type="button"
            class="quiet"
            disabled={newPart.trim() === ''}
            onClick={() => {
              const part = newPart.trim().toLowerCase().replace(/\s+/g, '_');
              props.onAdjust([
                ...props.adjustments.filter((a) => a.part !== part),
                { part, added: true, operation: 'repair_and_paint' },
              ]);
              setNewPart('');
            }}
          >
            Add
          </button>
          {pending > 0 && (
            <p class="muted small">
              {count(pending, 'change')} to the estimate: priced when you save the review.
            </p>
          )}
        </div>
      )}
      <p class="muted small">
        Rate card version {estimate.rate_card_version}. A suggestion for a person to check, never charged
        automatically.{' '}
        <a href={props.csvHref} download>
          Download the lines (CSV)
        </a>
      </p>
    </section>
  );
}
