// The portal at scale: 100,000 inspections of 10 photos each across 20 clients, on SQLite and on
// PostgreSQL (a throwaway database of the local server), then, through the portal's API in-process
// (app.inject, so the figures are the server's own time):
//   1. p50 and p95 of the list and of searches by case id, plate, flag and date range, as a client user
//      and as an operator (targets: p95 < 50 ms on PostgreSQL, < 100 ms on SQLite), with the plans of
//      those queries (indexes, no full scan of the inspections);
//   2. opening an inspection page with 10 photos: the API call and the 10 thumbnails;
//   3. generating the PDF report of 10 photos.
//
//   npm run bench:portal     (BENCH_INSPECTIONS=100000, BENCH_RUNS=40, BENCH_DATABASES=sqlite,postgres)
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Compilable, type Insertable } from 'kysely';
import { loadConfig } from '../src/config.js';
import { buildDeps, type Deps } from '../src/deps.js';
import { compactReading, digestOf } from '../src/domain/result/digest.js';
import { buildApp } from '../src/http/app.js';
import type { Tables } from '../src/ports/database.js';
import { searchQueries, type InspectionSearch } from '../src/services/portal/search-inspections.js';
import { createClient } from '../src/services/clients/manage.js';
import { PASSWORD, portalUser, seedInspection } from '../test/helpers/portal.js';
import { createPostgresDatabase } from '../test/helpers/postgres.js';

const INSPECTIONS = Number(process.env.BENCH_INSPECTIONS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',');
const CLIENTS = 20;
const PHOTOS = 10;
const YEAR_MS = 365 * 24 * 3600 * 1000;
const FLAG_ODDS: [string, number][] = [
  ['blurry', 0.1],
  ['edited', 0.05],
  ['reused', 0.03],
  ['plate_mismatch', 0.02],
  ['no_vehicle', 0.05],
  ['damage', 0.2],
];

const random = (() => {
  let seed = 20261125;
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
})();
const letters = (n: number) =>
  Array.from({ length: n }, () => String.fromCharCode(65 + Math.floor(random() * 26))).join('');
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');

interface Plan {
  name: string;
  search: InspectionSearch;
  asOperator: boolean;
}

async function seed(deps: Deps, clientIds: string[]): Promise<{ plates: string[]; until: number }> {
  const started = performance.now();
  const until = Date.now();
  const plates: string[] = [];
  const BATCH = 500;
  for (let done = 0; done < INSPECTIONS;) {
    const inspections: Insertable<Tables['inspections']>[] = [];
    const media: Insertable<Tables['media']>[] = [];
    const facts: Insertable<Tables['inspection_facts']>[] = [];
    const versions: Insertable<Tables['inspection_results']>[] = [];
    for (let i = 0; i < BATCH && done < INSPECTIONS; i++, done++) {
      const id = crypto.randomUUID();
      const clientId = clientIds[done % CLIENTS]!;
      const createdAt = until - Math.floor(random() * YEAR_MS);
      const flags = FLAG_ODDS.filter(([, odds]) => random() < odds).map(([flag]) => flag);
      const plate = random() < 0.3 ? `${letters(2)}-${digits(3)}-${letters(2)}` : null;
      if (plate && plates.length < 200) plates.push(plate);
      const items = Array.from({ length: PHOTOS }, (_, position) => ({
        id: crypto.randomUUID(),
        position,
        kind: 'image',
        sha256: crypto.createHash('sha256').update(`${id}:${position}`).digest('hex'),
        thumbnail_key: `sha256/00/${position}`,
        flags: position === 0 ? flags : [],
        analysis: position === 0 && plate ? { text: { plate: { read: plate } } } : {},
      }));
      const result = {
        inspection_id: id,
        version: 1,
        media: items,
        summary: { media_count: PHOTOS, damages: flags.includes('damage') ? 1 : 0, flags },
      };
      const json = JSON.stringify(result);
      inspections.push({
        id,
        client_id: clientId,
        case_id: `CLM-${String(done % CLIENTS).padStart(2, '0')}-${String(done).padStart(7, '0')}`,
        source: random() < 0.3 ? ('link' as const) : ('file' as const),
        status: random() < 0.97 ? ('completed' as const) : ('failed' as const),
        callback_url: null,
        agent_id: null,
        agent_name: null,
        email_id: null,
        input_metadata: null,
        original_pair_ids: null,
        result: json,
        result_version: 1,
        digest: JSON.stringify(digestOf(result)),
        created_at: createdAt,
        updated_at: createdAt,
      });
      versions.push({
        inspection_id: id,
        version: 1,
        result: json,
        origin: 'analysis' as const,
        author_id: null,
        created_at: createdAt,
      });
      for (const item of items)
        media.push({
          id: item.id,
          inspection_id: id,
          client_id: clientId,
          position: item.position,
          kind: 'image' as const,
          pair_index: null,
          pair_member: null,
          original_id: `${item.position}.jpg`,
          source_url: null,
          storage_key: `sha256/00/${item.sha256}`,
          sha256: item.sha256,
          bytes: 3_000_000,
          mime: 'image/jpeg',
          capture_metadata: null,
          created_at: createdAt,
        });
      for (const flag of flags)
        facts.push({
          inspection_id: id,
          client_id: clientId,
          kind: 'flag' as const,
          value: flag,
          created_at: createdAt,
        });
      if (plate)
        facts.push({
          inspection_id: id,
          client_id: clientId,
          kind: 'plate' as const,
          value: compactReading(plate),
          created_at: createdAt,
        });
    }
    await deps.db.transaction().execute(async (trx) => {
      await trx.insertInto('inspections').values(inspections).execute();
      await trx.insertInto('inspection_results').values(versions).execute();
      for (let i = 0; i < media.length; i += 1000)
        await trx
          .insertInto('media')
          .values(media.slice(i, i + 1000))
          .execute();
      if (facts.length > 0) await trx.insertInto('inspection_facts').values(facts).execute();
    });
  }
  // Fresh statistics (and on PostgreSQL the visibility map that index-only scans need), as the
  // database's own maintenance (autovacuum) would have after such a load.
  if (deps.database.dialect === 'postgres') await sql`vacuum analyze`.execute(deps.db);
  else await sql`analyze`.execute(deps.db);
  console.log(
    `  seeded ${INSPECTIONS} inspections, ${INSPECTIONS * PHOTOS} media in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return { plates, until };
}

const percentile = (samples: number[], q: number) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function plan(deps: Deps, query: Compilable): Promise<string> {
  const compiled = query.compile();
  if (deps.database.dialect === 'postgres') {
    const rows = await deps.db.executeQuery<{ 'QUERY PLAN': string }>({
      ...compiled,
      sql: `explain (analyze, costs off, timing off, summary off) ${compiled.sql}`,
    });
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  }
  const rows = await deps.db.executeQuery<{ detail: string }>({
    ...compiled,
    sql: `explain query plan ${compiled.sql}`,
  });
  return rows.rows.map((r) => r.detail).join('\n');
}

async function run(database: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-bench-portal-'));
  const postgres = database === 'postgres' ? await createPostgresDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(postgres && { DATABASE_URL: postgres.url }),
  });
  const deps = await buildDeps(config);
  const app = await buildApp(deps);
  try {
    console.log(`\n${database}:`);
    const clientIds = [];
    for (let i = 0; i < CLIENTS; i++)
      clientIds.push((await createClient(deps, { name: `Client ${i}` })).client.id);
    const { plates, until } = await seed(deps, clientIds);
    const viewer = await portalUser(deps, 'client_viewer', clientIds[3]);
    const operator = await portalUser(deps, 'operator');
    const cookie = async (email: string) => {
      const res = await app.inject({
        method: 'POST',
        url: '/portal/api/session',
        payload: { email, password: PASSWORD },
      });
      return `walkaround_portal=${res.cookies.find((c) => c.name === 'walkaround_portal')!.value}`;
    };
    const cookies = { viewer: await cookie(viewer), operator: await cookie(operator) };
    const month = new Date(until - 60 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const monthEnd = new Date(until - 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    const plans: Plan[] = [];
    for (const asOperator of [false, true]) {
      const who = asOperator ? 'operator' : 'client';
      plans.push(
        { name: `${who}: list, newest first`, search: {}, asOperator },
        {
          name: `${who}: case id prefix`,
          search: { caseId: asOperator ? 'CLM-07-00012' : 'CLM-03-00012' },
          asOperator,
        },
        {
          name: `${who}: plate prefix`,
          search: { plate: plates[asOperator ? 5 : 3]!.slice(0, 5) },
          asOperator,
        },
        { name: `${who}: flag blurry`, search: { flags: ['blurry'] }, asOperator },
        { name: `${who}: flags reused+damage`, search: { flags: ['reused', 'damage'] }, asOperator },
        {
          name: `${who}: one month`,
          search: { from: Date.parse(month), to: Date.parse(monthEnd) },
          asOperator,
        },
      );
    }
    const url = (search: InspectionSearch) => {
      const q = new URLSearchParams();
      if (search.caseId) q.set('case_id', search.caseId);
      if (search.plate) q.set('plate', search.plate);
      if (search.flags) q.set('flags', search.flags.join(','));
      if (search.from) q.set('from', new Date(search.from).toISOString().slice(0, 10));
      if (search.to) q.set('to', new Date(search.to - 1).toISOString().slice(0, 10));
      return `/portal/api/inspections?${q.toString()}`;
    };
    const target = database === 'postgres' ? 50 : 100;
    console.log(`  1. list and search, ${RUNS} runs each (p95 target < ${target} ms):`);
    const plansText: string[] = [];
    for (const p of plans) {
      const headers = { cookie: p.asOperator ? cookies.operator : cookies.viewer };
      const samples: number[] = [];
      let found = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        const started = performance.now();
        const res = await app.inject({ method: 'GET', url: url(p.search), headers });
        const ms = performance.now() - started;
        if (res.statusCode !== 200) throw new Error(`${p.name}: ${res.statusCode} ${res.body}`);
        if (i >= 3) samples.push(ms); // the first runs warm the caches
        found = res.json<{ items: unknown[] }>().items.length;
      }
      const p95 = percentile(samples, 0.95);
      console.log(
        `     ${p.name.padEnd(34)} p50 ${percentile(samples, 0.5).toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ${p95 < target ? 'met' : 'MISSED'}  (${found} on the page)`,
      );
      const queries = searchQueries(deps.db, { clientId: p.asOperator ? null : clientIds[3]! }, p.search);
      plansText.push(`   ${p.name}, page:\n${indent(await plan(deps, queries.page))}`);
      plansText.push(`   ${p.name}, counts:\n${indent(await plan(deps, queries.counts))}`);
    }

    // 2 and 3: one inspection with 10 real photos and thumbnails.
    const real = await seedInspection(deps, clientIds[3]!, {
      caseId: 'BENCH-10',
      plate: 'AB-123-CD',
      photos: Array.from(
        { length: 10 },
        (_, i) => ['home.jpg', 'exif.jpg', 'scenetext01.jpg', 'licenseplate_motion.jpg'][i % 4]!,
      ),
      damages: [{ part: 'bumper', type: 'scratch', box: { x: 0.3, y: 0.5, width: 0.2, height: 0.1 } }],
    });
    const headers = { cookie: cookies.viewer };
    const pageTimes: number[] = [];
    const pdfTimes: number[] = [];
    let pdfBytes = 0;
    for (let i = 0; i < 8; i++) {
      const started = performance.now();
      const page = await app.inject({ method: 'GET', url: `/portal/api/inspections/${real.id}`, headers });
      if (page.statusCode !== 200) throw new Error(`page: ${page.statusCode}`);
      await Promise.all(
        real.mediaIds.map((m) =>
          app.inject({
            method: 'GET',
            url: `/portal/api/inspections/${real.id}/media/${m}/thumbnail`,
            headers,
          }),
        ),
      );
      pageTimes.push(performance.now() - started);
      const pdfStarted = performance.now();
      const pdf = await app.inject({
        method: 'GET',
        url: `/portal/api/inspections/${real.id}/report.pdf`,
        headers,
      });
      if (pdf.statusCode !== 200) throw new Error(`pdf: ${pdf.statusCode}`);
      pdfTimes.push(performance.now() - pdfStarted);
      pdfBytes = pdf.rawPayload.length;
    }
    console.log(
      `  2. inspection page with 10 photos (API call + 10 thumbnails): median ${percentile(pageTimes, 0.5).toFixed(1)} ms, max ${Math.max(...pageTimes).toFixed(1)} ms`,
    );
    console.log(
      `  3. PDF report of 10 photos: median ${percentile(pdfTimes, 0.5).toFixed(0)} ms, max ${Math.max(...pdfTimes).toFixed(0)} ms (${(pdfBytes / 1024).toFixed(0)} KB)`,
    );
    console.log(`  query plans (${database === 'postgres' ? 'EXPLAIN ANALYZE' : 'EXPLAIN QUERY PLAN'}):`);
    console.log(plansText.join('\n'));
  } finally {
    await app.close();
    await deps.close();
    await postgres?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');

console.log(
  `Portal bench: ${INSPECTIONS} inspections × ${PHOTOS} photos, ${CLIENTS} clients, node ${process.version}, ${os.cpus().length} cores`,
);
for (const database of DATABASES) await run(database);
