// Per-client hours of service (docs/api.md#quotas-and-service-windows): "always", or comma-separated "<days>
// <HH:MM>-<HH:MM>" rules such as "mon-fri 08:00-18:00, sat 09:00-13:00", read in the client's time zone. An
// end before its start runs past midnight ("mon-sun 22:00-06:00").
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
type Day = (typeof DAYS)[number];

export interface WindowRule {
  days: number[];
  startMinute: number;
  endMinute: number;
}

export class ServiceWindowError extends Error {
  override name = 'ServiceWindowError';
}

const RULE = /^([a-z]{3})(?:-([a-z]{3}))?\s+(\d{2}):(\d{2})-(\d{2}):(\d{2})$/;

/** Parses a window; `null` means always open. Throws ServiceWindowError with what is wrong. */
export function parseServiceWindow(text: string): WindowRule[] | null {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'always' || trimmed === '') return null;
  return trimmed.split(',').map((part) => parseRule(part.trim()));
}

function parseRule(rule: string): WindowRule {
  const m = RULE.exec(rule);
  if (!m) throw new ServiceWindowError(`"${rule}" is not of the form "mon-fri 08:00-18:00"`);
  const first = dayIndex(m[1]!);
  const last = m[2] === undefined ? first : dayIndex(m[2]);
  const startMinute = minuteOfDay(m[3]!, m[4]!);
  const endMinute = minuteOfDay(m[5]!, m[6]!);
  if (startMinute === endMinute) throw new ServiceWindowError(`"${rule}" opens and closes at the same time`);
  const days: number[] = [];
  for (let d = first; ; d = (d + 1) % 7) {
    days.push(d);
    if (d === last) break;
  }
  return { days, startMinute, endMinute };
}

function dayIndex(name: string): number {
  const index = DAYS.indexOf(name as Day);
  if (index < 0) throw new ServiceWindowError(`"${name}" is not a day (use ${DAYS.join(', ')})`);
  return index;
}

function minuteOfDay(hours: string, minutes: string): number {
  const h = Number(hours);
  const m = Number(minutes);
  if (h > 24 || m > 59 || (h === 24 && m > 0))
    throw new ServiceWindowError(`${hours}:${minutes} is not a time of day`);
  return h * 60 + m;
}

/** Whether `at` falls inside the window, read in `timeZone` (an IANA name such as "Europe/Paris"). */
export function isWithinWindow(rules: WindowRule[] | null, at: Date, timeZone: string): boolean {
  if (rules === null) return true;
  const { day, minute } = localTime(at, timeZone);
  return rules.some((r) =>
    r.startMinute < r.endMinute
      ? r.days.includes(day) && minute >= r.startMinute && minute < r.endMinute
      : (r.days.includes(day) && minute >= r.startMinute) ||
        (r.days.includes((day + 6) % 7) && minute < r.endMinute),
  );
}

function localTime(at: Date, timeZone: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    day: dayIndex(get('weekday').toLowerCase()),
    minute: Number(get('hour')) * 60 + Number(get('minute')),
  };
}

/** Whether the runtime knows the time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const STEP_SECONDS = 60;
const WEEK_SECONDS = 7 * 24 * 3600;

/** Seconds from `at` until the window next opens (0 when open now); for `Retry-After`. */
export function secondsUntilOpen(rules: WindowRule[] | null, at: Date, timeZone: string): number {
  // Windows open on whole minutes: step to the next minute boundary, then a minute at a time.
  const first = STEP_SECONDS - (Math.floor(at.getTime() / 1000) % STEP_SECONDS);
  if (isWithinWindow(rules, at, timeZone)) return 0;
  for (let s = first; s <= WEEK_SECONDS; s += STEP_SECONDS) {
    if (isWithinWindow(rules, new Date(at.getTime() + s * 1000), timeZone)) return s;
  }
  return WEEK_SECONDS;
}
