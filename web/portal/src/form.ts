// A text field of a submitted form, trimmed ('' when absent or a file).
export function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
