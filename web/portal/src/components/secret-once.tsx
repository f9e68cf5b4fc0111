// A secret shown once (a new API key, a webhook secret), with a copy button, and a copy button for any
// text (a code sample). The service keeps no copy it could show again, so the words say so.
import { useState } from 'preact/hooks';

/** Copies `text`; where the clipboard API is missing (plain http), the field's own selection and copy. */
async function copy(text: string, field?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!field) return false;
    field.select();
    return document.execCommand('copy');
  }
}

export function CopyButton({ text, what, field }: { text: string; what: string; field?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const onClick = async () => {
    const input = field ? (document.getElementById(field) as HTMLInputElement | null) : null;
    setState((await copy(text, input)) ? 'copied' : 'failed');
  };
  return (
    <button type="button" class="quiet copy" onClick={() => void onClick()}>
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select it and copy by hand' : 'Copy'}
      <span class="sr-only"> {what}</span>
    </button>
  );
}

export function SecretOnce({
  id,
  label,
  value,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  hint?: string;
}) {
  return (
    <div class="secret-once">
      <label for={id}>{label}</label>
      <div class="copy-row">
        <input
          id={id}
          readOnly
          value={value}
          spellcheck={false}
          autocomplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <CopyButton text={value} field={id} what={label} />
      </div>
      {hint && <p class="muted small">{hint}</p>}
    </div>
  );
}
