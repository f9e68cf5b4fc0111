// What every page of the operator console is given by the app shell.
import type { Me } from '../../api.js';

export interface ConsoleProps {
  /** The object opened in the section (a client's id, a persona's id), from the URL. */
  id: string | undefined;
  /** The section's filters, from the URL. */
  query: URLSearchParams;
  me: Me;
}

/** Operators and client admins run the console; a viewer only reads inspections. */
export const mayAdminister = (me: Me) => me.user.role !== 'client_viewer';
