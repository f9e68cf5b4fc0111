// The console's personas (docs/portal.md#the-operator-console).
import type { ConsoleProps } from './props.js';

export function PersonasPage(_props: ConsoleProps) {
  return (
    <main>
      <h1>Personas</h1>
      <p class="muted">Coming soon.</p>
    </main>
  );
}
