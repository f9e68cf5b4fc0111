// docs/ops/ must match the metrics the service exposes: the alert rules pass `promtool check rules` and
// their unit tests, the dashboard's queries parse, every metric they name exists, and docs/ops/metrics.md
// describes every metric of the service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';
import { parseScrape, promtool } from './helpers/prometheus.js';

const PROMTOOL = inject('promtool');
const OPS = 'docs/ops';
const read = (file: string) => fs.readFileSync(path.join(OPS, file), 'utf8');

/** The queries of the Grafana dashboard, with its variables given values Prometheus accepts. */
function dashboardQueries(): string[] {
  const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  return dashboard.panels
    .flatMap((panel) => panel.targets ?? [])
    .map((target) => target.expr.replaceAll('$__rate_interval', '5m').replaceAll('$job', '.*'));
}

/** Metric names in a text: the service's, fastify-metrics' and Node's process metrics. */
const metricNames = (text: string) =>
  new Set([...text.matchAll(/\b(?:walkaround|http_request|process|nodejs)_[a-z0-9_]+\b/g)].map((m) => m[0]));

describe('docs/ops', () => {
  let t: TestApp;
  /** Every metric family a scrape exposes, and the series names of its histograms. */
  let exposed: Set<string>;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    await t.app.inject({ url: '/healthz' }); // a route duration to expose
    const families = parseScrape((await t.app.inject({ url: '/metrics' })).body).families();
    exposed = new Set(families.flatMap((f) => [f, `${f}_bucket`, `${f}_count`, `${f}_sum`]));
  });
  afterAll(() => t?.close());

  it.skipIf(!PROMTOOL)('alerts.yml passes `promtool check rules`, and its unit tests pass', () => {
    const checked = promtool(PROMTOOL!, ['check', 'rules', path.join(OPS, 'alerts.yml')]);
    expect(checked.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(checked.output).not.toMatch(/warn|fail/i);
    expect(checked.status).toBe(0);
    const tested = promtool(PROMTOOL!, ['test', 'rules', path.join(OPS, 'alerts.test.yml')]);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.status).toBe(0);
  });

  it.skipIf(!PROMTOOL)('every query of the Grafana dashboard parses (checked by promtool as rules)', () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(10);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkaround-dashboard-'));
    try {
      const rules = queries.map((expr, i) => ({ record: `dashboard:query_${i}`, expr }));
      const file = path.join(dir, 'queries.yml');
      // JSON is YAML: promtool reads it as a rule file.
      fs.writeFileSync(file, JSON.stringify({ groups: [{ name: 'dashboard', rules }] }));
      const checked = promtool(PROMTOOL!, ['check', 'rules', file]);
      expect(checked.output).toContain(`SUCCESS: ${queries.length} rules found`);
      expect(checked.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the alert rules and the dashboard name only metrics the service exposes', () => {
    const rules = read('alerts.yml').replace(/^\s*#.*$/gm, ''); // its comments name families loosely
    const named = metricNames([rules, ...dashboardQueries()].join('\n'));
    expect(named.size).toBeGreaterThan(10);
    expect([...named].filter((name) => !exposed.has(name))).toEqual([]);
  });

  it("metrics.md describes every metric of the service's own, and names no other", () => {
    const documented = metricNames(read('metrics.md'));
    const own = [...exposed].filter(
      (name) => name.startsWith('walkaround_') && !/_(bucket|count|sum)$/.test(name),
    );
    expect(own.length).toBeGreaterThan(10);
    expect(own.filter((name) => !documented.has(name))).toEqual([]);
    const unknown = [...documented].filter(
      (name) => !exposed.has(name) && !/^nodejs_active_(handles|requests|resources)_total$/.test(name),
    );
    expect(unknown).toEqual([]);
  });
});
