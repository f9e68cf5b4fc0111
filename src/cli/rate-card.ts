// walkaround clients rate-card get|set (docs/estimate.md#the-rate-card): a client's rate card as JSON,
// replaced from a file; part prices may come from a CSV file instead of (or on top of) the card's own.
import fs from 'node:fs';
import { Command } from 'commander';
import { CLI_ACTOR } from '../services/audit.js';
import { getRateCard, partPricesFromCsv, setRateCard } from '../services/clients/rate-card.js';
import { withStorage } from './context.js';

export function rateCardCommand(): Command {
  const rateCard = new Command('rate-card').description("a client's rate card for repair estimates");
  rateCard
    .command('get')
    .description('print the card as JSON (the example card, version 0, until one is set)')
    .argument('<client-id>')
    .action(async (clientId: string) =>
      withStorage(async (deps) => {
        process.stdout.write(JSON.stringify(await getRateCard(deps.db, clientId), null, 2) + '\n');
      }),
    );
  rateCard
    .command('set')
    .description('replace the card: from --file (JSON), or the current card with --prices (CSV part,price)')
    .argument('<client-id>')
    .option('--file <card.json>', 'the whole card, as `rate-card get` prints its "card"')
    .option('--prices <prices.csv>', "part prices, one part,price line each; they replace the card's")
    .action(async (clientId: string, o: { file?: string; prices?: string }) =>
      withStorage(async (deps) => {
        if (!o.file && !o.prices) throw new Error('give --file card.json, --prices prices.csv, or both');
        const card = o.file
          ? (JSON.parse(fs.readFileSync(o.file, 'utf8')) as Record<string, unknown>)
          : { ...(await getRateCard(deps.db, clientId)).card };
        if (o.prices) card.part_prices = partPricesFromCsv(fs.readFileSync(o.prices, 'utf8'));
        const stored = await setRateCard(deps, clientId, card, CLI_ACTOR);
        process.stdout.write(JSON.stringify(stored) + '\n');
      }),
    );
  return rateCard;
}
