// A client's settings refused by the API (CLIENT_INVALID, docs/errors.md), said at their field in words
// a client admin can act on; the API's message, written for the operator, stays behind "More".
import type { FailureRule } from '../../../components/field-error.js';

export const SETTING_FAILURES: FailureRule[] = [
  [
    /^webhook URL .*private address/,
    'webhook_url',
    'This address is on a private network (this computer or an internal one), which events may not be sent to. Use an address the internet can reach, or ask your Walkaround operator.',
  ],
  [
    /^webhook URL must be an http/,
    'webhook_url',
    'Enter a web address that starts with https:// (or http://).',
  ],
  [
    /^webhook URL must not contain credentials/,
    'webhook_url',
    'Leave the user name and password out of the address: every event is signed instead.',
  ],
  [/^name must not be empty/, 'name', 'Give the client a name.'],
  [/^quota must/, 'quota_per_hour', 'Enter a whole number of uploads per hour, 1 or more.'],
  [
    /^service window/,
    'service_window',
    'This service window cannot be read. Write days and hours, such as mon-fri 08:00-18:00, sat 09:00-13:00.',
  ],
  [
    /^unknown time zone/,
    'timezone',
    'This time zone is not known. Choose one from the list, such as Europe/Paris.',
  ],
  [/^link validity/, 'link_ttl_hours', 'Links must stay valid for at least one minute.'],
];
