// Flags as badges with their meaning on hover and for screen readers, and as an explained list.
import { flagText } from '../../../../src/domain/flags.js';

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

export function FlagList({ flags, counts }: { flags: string[]; counts?: Record<string, number> }) {
  if (flags.length === 0) return <p class="muted">Nothing was flagged.</p>;
  return (
    <dl class="flag-list">
      {flags.map((flag) => {
        const { label, explanation } = flagText(flag);
        return (
          <div key={flag}>
            <dt>
              <span class={`badge flag-${flag}`}>{label}</span>
              {counts?.[flag] !== undefined && <span class="muted"> on {counts[flag]} item(s)</span>}
            </dt>
            <dd>{explanation}</dd>
          </div>
        );
      })}
    </dl>
  );
}
