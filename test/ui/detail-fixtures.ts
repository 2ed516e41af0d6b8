// The index detail as services/index-detail.ts fills it, from the answers recorded from a real node
// (test/fixtures/detail, dev/record-detail-fixtures.ts), parsed by the same parsers.
import fs from 'node:fs';
import path from 'node:path';
import { detailRequests } from '../../src/cluster/inspect';
import type { IndexDetail } from '../../src/domain/index-detail';
import { parseIndexSettings, parseIndexStats, parseIndexTemplates, templateMatch } from '../../src/domain/inspect';
import { parseCatShards } from '../../src/domain/parse';

const DIR = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'fixtures', 'detail');

export function detailFixture(name: string): any {
  const text = fs.readFileSync(path.join(DIR, name), 'utf8');
  return name.endsWith('.json') ? JSON.parse(text) : text;
}

/** The full detail of a recorded index ('alpha' or 'wide'): every read arrived, two stats reads `gapMs` apart. */
export function recordedDetail(short: 'alpha' | 'wide', now: number, gapMs = 5000): IndexDetail {
  const index = `service_v9_${short}`;
  const at = now - 1000;
  const stats = parseIndexStats(detailFixture(`${short}-stats.json`)).indices[index];
  const prev = parseIndexStats(detailFixture(`${short}-stats-prev.json`)).indices[index];
  const ok = <T,>(data: T, periodMs?: number) => ({ data, fetchedAt: at, failures: 0, periodMs });
  return {
    index,
    requests: detailRequests(index),
    settings: ok(parseIndexSettings(detailFixture(`${short}-settings.json`))[0], Number.POSITIVE_INFINITY),
    mappings: ok(detailFixture(`${short}-mappings.json`)[index].mappings, Number.POSITIVE_INFINITY),
    template: ok(templateMatch(index, detailFixture(`${short}-simulate.json`), parseIndexTemplates(detailFixture('templates.json'))), Number.POSITIVE_INFINITY),
    shards: ok(parseCatShards(detailFixture(short === 'alpha' ? 'alpha-shards.json' : 'wide-shards.json'))),
    stats: ok(stats),
    previousStats: { data: prev, fetchedAt: at - gapMs },
  };
}
