// A day, written as the rest of the portal writes it ("26 Nov 2026"), whatever the browser's own date
// field would show (often mm/dd/yyyy): a text field that reads what is typed (26 Nov 2026, 26/11/2026,
// 2026-11-26), a button that opens the browser's calendar, and the form value as ISO (2026-11-26).
import { useRef, useState } from 'preact/hooks';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** `2026-11-26` → `26 Nov 2026` (the day as written, in no time zone). */
export function dayText(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d)).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** A day as typed → `yyyy-mm-dd`; undefined when it is not one. */
export function parseDay(text: string): string | undefined {
  const t = text.trim().toLowerCase().replace(/,/g, ' ');
  let y: number, m: number, d: number;
  let match: RegExpExecArray | null;
  if ((match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t))) [y, m, d] = [+match[1]!, +match[2]!, +match[3]!];
  else if ((match = /^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$/.exec(t)))
    [d, m, y] = [+match[1]!, +match[2]!, +match[3]!];
  else if ((match = /^(\d{1,2})\s+([a-z]{3})[a-z]*\.?\s+(\d{4})$/.exec(t))) {
    d = +match[1]!;
    m = MONTHS.indexOf(match[2]!) + 1;
    y = +match[3]!;
  } else return undefined;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (m < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d)
    return undefined;
  return date.toISOString().slice(0, 10);
}

export function DateInput({ id, name, value }: { id: string; name: string; value: string }) {
  const [text, setText] = useState(() => {
    const day = parseDay(value);
    return day ? dayText(day) : '';
  });
  /** Said once the person has left the field (not while they type). */
  const [wrong, setWrong] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  // What the form sends is read from the text as it is now, so Enter submits the day just typed; a
  // day that cannot be read sends nothing (and the field says why).
  const iso = parseDay(text) ?? '';
  const read = (typed: string) => {
    const day = typed.trim() ? parseDay(typed) : '';
    setWrong(day === undefined);
    setText(day ? dayText(day) : typed);
  };
  return (
    <span class="date-input">
      <input
        id={id}
        value={text}
        placeholder="e.g. 26 Nov 2026"
        autocomplete="off"
        aria-invalid={wrong || undefined}
        aria-describedby={wrong ? `${id}-wrong` : undefined}
        onInput={(e) => setText(e.currentTarget.value)}
        onChange={(e) => read(e.currentTarget.value)}
      />
      <input type="hidden" name={name} value={iso} />
      <input
        ref={picker}
        type="date"
        class="date-picker"
        tabIndex={-1}
        aria-hidden="true"
        value={iso}
        onChange={(e) => read(e.currentTarget.value)}
      />
      <button
        type="button"
        class="quiet calendar"
        aria-label="Choose on a calendar"
        onClick={() => picker.current?.showPicker?.()}
      >
        {/* Drawn, not an emoji: a machine without an emoji font shows a box. */}
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <rect x="1.5" y="3" width="13" height="11.5" rx="1.5" fill="none" stroke="currentColor" />
          <path d="M1.5 6.5h13M5 1.5v3M11 1.5v3" stroke="currentColor" />
        </svg>
      </button>
      {wrong && (
        <span class="field-error" id={`${id}-wrong`} role="alert">
          Write a day such as 26 Nov 2026.
        </span>
      )}
    </span>
  );
}
