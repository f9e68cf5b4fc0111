// What the audit log records (docs/audit.md): every action a change can be written as, one list, so an
// entry can only name one of these and the documentation is checked against it.
export const AUDIT_ACTIONS = [
  // Clients
  'client.create',
  'client.update',
  'api_key.create',
  'api_key.rotate',
  'api_key.revoke',
  'webhook_secret.rotate',
  'client.rate_card',
  // Capture flows
  'persona.create',
  'persona.update',
  'persona.logo',
  'link.create_test',
  // Users
  'user.create',
  'user.invite',
  'user.update',
  'user.password_link',
  'user.set_password',
  'user.reset_password',
  'user.unlock',
  // Inspections
  'inspection.review',
  'inspection.reanalyse',
  'share.create',
  'share.revoke',
  'vehicle.merge',
  // Messages
  'webhook.resend',
  'outbox.send_held',
  'outbox.resend',
  // Service
  'signing_key.rotate',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
