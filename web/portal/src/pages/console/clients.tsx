// The console's clients (docs/portal.md#the-operator-console).
import type { ConsoleProps } from './props.js';

export function ClientsPage(_props: ConsoleProps) {
  return (
    <main>
      <h1>Clients</h1>
      <p class="muted">Coming soon.</p>
    </main>
  );
}
