// Flags as badges with their meaning on hover and for screen readers, and as an explained list.
import { flagText } from '../../../../src/domain/flags.js';
import { count } from '../format.js';

export function FlagBadges({ flags }: { flags: string[] }) {
  if (flags.length === 0) return <span class="muted">none</span>;
  return (
    <span class="badges">
      {flags.map((flag) => {
        const { label, explanation } = flagText(flag);
        return (
          <span key={flag} class={`badge flag-${flag}`} title={explanation}>
            {label}
          </span>
        );
      })}
    </span>
  );
}

/**
 * The flags with their meaning; with `itemsOf`, which photos carry each, and a toggle that shows only
 * those in the strip.
 */
export function FlagList<Item>(props: {
  flags: string[];
  counts?: Record<string, number>;
  itemsOf?: (flag: string) => Item[];
  nameOf?: (item: Item) => string;
  selected?: Set<string>;
  onSelect?: (flag: string) => void;
  /** How many items there are: a flag on all of them needs no filter. */
  total?: number;
}) {
  const { flags, counts } = props;
  if (flags.length === 0) return <p class="muted">Nothing was flagged.</p>;
  return (
    <dl class="flag-list">
      {flags.map((flag) => {
        const { label, explanation } = flagText(flag);
        const items = props.itemsOf?.(flag);
        return (
          <div key={flag}>
            <dt>
              <span class={`badge flag-${flag}`}>{label}</span>
              {items && props.nameOf ? (
                <span class="muted"> on {items.map(props.nameOf).join(', ')}</span>
              ) : (
                counts?.[flag] !== undefined && <span class="muted"> on {count(counts[flag], 'item')}</span>
              )}
              {props.onSelect && items && items.length < (props.total ?? 0) && (
                <button
                  type="button"
                  class="link small flag-filter-toggle"
                  aria-pressed={props.selected?.has(flag) ?? false}
                  onClick={() => props.onSelect!(flag)}
                >
                  {props.selected?.has(flag) ? 'Show all' : 'Show only these'}
                </button>
              )}
            </dt>
            <dd>{explanation}</dd>
          </div>
        );
      })}
    </dl>
  );
}
