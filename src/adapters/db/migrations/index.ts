import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../connect.js';
import { foundation } from './0001-foundation.js';
import { inspections } from './0002-inspections.js';
import { analysis } from './0003-analysis.js';
import { webhooks } from './0004-webhooks.js';
import { links } from './0005-links.js';
import { captureOptions } from './0006-capture-options.js';
import { outboxSealedTokens } from './0007-outbox-sealed-tokens.js';
import { portal } from './0008-portal.js';
import { webhookListeners } from './0009-webhook-listeners.js';
import { outboxStatus } from './0010-outbox-status.js';
import { auditLog } from './0011-audit-log.js';
import { clientDeliveries } from './0012-client-deliveries.js';
import { personaLogos } from './0013-persona-logos.js';
import { passwordLinks } from './0014-password-links.js';
import { vehicles } from './0015-vehicles.js';
import { rateCards } from './0016-rate-cards.js';
import { shareDetails } from './0017-share-details.js';

/** Migrations live in code (not files found at run time) so the compiled package carries them. */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: (): Promise<Record<string, Migration>> =>
      Promise.resolve({
        '0001-foundation': foundation(dialect),
        '0002-inspections': inspections(),
        '0003-analysis': analysis(),
        '0004-webhooks': webhooks(),
        '0005-links': links(),
        '0006-capture-options': captureOptions(),
        '0007-outbox-sealed-tokens': outboxSealedTokens(),
        '0008-portal': portal(),
        '0009-webhook-listeners': webhookListeners(),
        '0010-outbox-status': outboxStatus(),
        '0011-audit-log': auditLog(dialect),
        '0012-client-deliveries': clientDeliveries(),
        '0013-persona-logos': personaLogos(),
        '0014-password-links': passwordLinks(dialect),
        '0015-vehicles': vehicles(),
        '0016-rate-cards': rateCards(),
        '0017-share-details': shareDetails(),
      }),
  };
}
