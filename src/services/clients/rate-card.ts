// A client's rate card (docs/estimate.md#the-rate-card): read, replaced whole (validated, versioned and
// audited), and part prices imported from CSV. A client without its own card gets the example card,
// version 0, whose figures are examples only.
import { Value } from '@sinclair/typebox/value';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../domain/errors.js';
import { DEFAULT_RATE_CARD, isCurrency, RateCard } from '../../domain/estimate/rate-card.js';
import { type Db, inTransaction } from '../../ports/database.js';
import { recordAudit, type AuditActor } from '../audit.js';

export interface StoredRateCard {
  card: RateCard;
  version: number;
  /** The example card: the client has not set its own. */
  example: boolean;
}

export const cardOfRow = (row: { rate_card: string | null; rate_card_version: number }): StoredRateCard =>
  row.rate_card === null
    ? { card: DEFAULT_RATE_CARD, version: 0, example: true }
    : { card: JSON.parse(row.rate_card) as RateCard, version: row.rate_card_version, example: false };

export async function getRateCard(db: Db, clientId: string): Promise<StoredRateCard> {
  const row = await db
    .selectFrom('clients')
    .select(['rate_card', 'rate_card_version'])
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (!row) throw new AppError('CLIENT_NOT_FOUND', { params: { id: clientId } });
  return cardOfRow(row);
}

/** The card, checked: RATE_CARD_INVALID names the first field that is wrong. */
export function checkRateCard(value: unknown): RateCard {
  const error = Value.Errors(RateCard, value).First();
  if (error)
    throw new AppError('RATE_CARD_INVALID', {
      params: { reason: `${error.path || 'the card'}: ${error.message}` },
    });
  const card = value as RateCard;
  if (!isCurrency(card.currency))
    throw new AppError('RATE_CARD_INVALID', {
      params: { reason: `/currency: ${card.currency} is not an ISO 4217 currency` },
    });
  return card;
}

/** Replaces the client's card; the version grows by one. */
export async function setRateCard(
  deps: { db: Db; now: () => number },
  clientId: string,
  value: unknown,
  by: AuditActor,
): Promise<StoredRateCard> {
  const card = checkRateCard(value);
  return inTransaction(deps.db, async (trx) => {
    const before = await trx
      .selectFrom('clients')
      .select(['rate_card', 'rate_card_version'])
      .where('id', '=', clientId)
      .executeTakeFirst();
    if (!before) throw new AppError('CLIENT_NOT_FOUND', { params: { id: clientId } });
    const now = deps.now();
    const version = before.rate_card_version + 1;
    await trx
      .updateTable('clients')
      .set({ rate_card: JSON.stringify(card), rate_card_version: version, updated_at: now })
      .where('id', '=', clientId)
      .execute();
    await recordAudit(trx, now, {
      actor: by,
      action: 'client.rate_card',
      object: { type: 'client', id: clientId },
      clientId,
      before: cardOfRow(before),
      after: { card, version, example: false },
    });
    return { card, version, example: false };
  });
}

/**
 * Part prices from CSV text: `part,price` rows (`;` separates too, then with a decimal comma); a first
 * row whose price is not a number is a header. RATE_CARD_INVALID names the first bad row.
 */
export function partPricesFromCsv(text: string): Record<string, number> {
  const semicolon = (text.split(/\r?\n/, 1)[0] ?? '').includes(';');
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: semicolon ? ';' : ',', skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new AppError('RATE_CARD_INVALID', {
      params: { reason: `the prices: ${(error as Error).message}` },
    });
  }
  const prices: Record<string, number> = {};
  for (const [index, [part = '', price = ''] = []] of rows.entries()) {
    const amount = Number(semicolon ? price.replace(',', '.') : price);
    if (index === 0 && !Number.isFinite(amount)) continue;
    if (!/^[a-z0-9_]{1,64}$/.test(part) || price === '' || !Number.isFinite(amount) || amount < 0)
      throw new AppError('RATE_CARD_INVALID', {
        params: { reason: `row ${index + 1} of the prices: expected part,price (e.g. front_bumper,410)` },
      });
    prices[part] = amount;
  }
  return prices;
}
