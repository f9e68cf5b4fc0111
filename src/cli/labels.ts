// walkaround labels export: the damage boxes reviewers set, in COCO format, to train a damage model
// (docs/portal.md#label-export). The JSON goes to standard output; with --images, the photos too.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Command } from 'commander';
import { createStorage } from '../deps.js';
import { contentKey } from '../ports/media-storage.js';
import { exportLabels } from '../services/portal/labels.js';
import { withStorage } from './context.js';
import { day, oneOf } from './options.js';

export function labelsCommand(): Command {
  const labels = new Command('labels').description('training data from reviews');
  labels
    .command('export')
    .description('reviewed damage boxes as COCO JSON on standard output')
    .option('--client <id>', "one client's reviews (default: every client)")
    .option('--since <day>', 'reviews on or after this day (UTC)', day)
    .option('--format <format>', 'output format', oneOf('coco'), 'coco')
    .option('--images <dir>', 'also write each photo to this folder, named as in the JSON')
    .action((o: { client?: string; since?: number; format: 'coco'; images?: string }) =>
      withStorage(async (deps) => {
        const coco = await exportLabels(deps, { clientId: o.client ?? null, since: o.since });
        if (o.images) {
          const storage = await createStorage(deps.config);
          fs.mkdirSync(o.images, { recursive: true });
          for (const image of coco.images)
            await pipeline(
              await storage.get(contentKey(image.sha256)),
              fs.createWriteStream(path.join(o.images, image.file_name)),
            );
        }
        process.stdout.write(`${JSON.stringify(coco, null, 2)}\n`);
      }),
    );
  return labels;
}
