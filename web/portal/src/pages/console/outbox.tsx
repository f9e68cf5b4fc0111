// The console's outbox (docs/portal.md#the-operator-console).
import type { ConsoleProps } from './props.js';

export function OutboxPage(_props: ConsoleProps) {
  return (
    <main>
      <h1>Outbox</h1>
      <p class="muted">Coming soon.</p>
    </main>
  );
}
