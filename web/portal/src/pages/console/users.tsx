// The console's users (docs/portal.md#the-operator-console).
import type { ConsoleProps } from './props.js';

export function UsersPage(_props: ConsoleProps) {
  return (
    <main>
      <h1>Users</h1>
      <p class="muted">Coming soon.</p>
    </main>
  );
}
