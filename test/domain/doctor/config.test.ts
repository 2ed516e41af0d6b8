// Issue 41, configuration: wildcard deletes allowed, a primary and its replica on one host, the
// licence, dangling indices, the frozen tier's flood stage. Recorded from real 8.19 nodes where the
// answer's shape matters (dev/record-doctor.ts: the basic licence, a dangling index made by copying
// another cluster's index folder into a node's data folder, the nodes' roles; the settings of
// dev/record-fixtures.ts with the frozen watermark's defaults); plain values for what one test host
// cannot show (two hosts, an expiring licence, a dedicated frozen node).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  danglingFinding,
  destructiveFinding,
  frozenFloodFinding,
  licenseFinding,
  parseDangling,
  parseLicense,
  sameHostFinding,
} from '../../../src/domain/doctor/config';
import { parseDoctorNodes } from '../../../src/domain/doctor/node';
import { parseClusterSettings } from '../../../src/domain/parse';
import type { NodeDisk, ShardRow } from '../../../src/domain/types';
import { FIXTURES } from '../../helpers/recorded';

const raw = (dir: string, name: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, dir, `${name}.json`), 'utf8'));
const settings = parseClusterSettings(raw('yellow', 'settings'));
const GB = 1024 ** 3;
const disk = (node: string, host: string, availBytes = 50 * GB): NodeDisk => ({
  node,
  host,
  ip: host,
  shards: 1,
  indicesBytes: 0,
  usedBytes: 100 * GB - availBytes,
  availBytes,
  totalBytes: 100 * GB,
});
const copy = (index: string, shard: number, primary: boolean, node: string): ShardRow => ({
  index,
  shard,
  primary,
  state: 'STARTED',
  node,
  docs: 1,
  storeBytes: 1,
  unassignedReason: null,
  unassignedDetails: null,
});

describe('config.destructive-requires-name', () => {
  it('false warns with the request that sets it back; the recorded default (true) holds', () => {
    expect(settings.destructiveRequiresName).toBe(true);
    expect(destructiveFinding(settings).severity).toBe('ok');
    expect(destructiveFinding({ destructiveRequiresName: false })).toMatchObject({
      severity: 'warn',
      remedy: 'PUT /_cluster/settings {"persistent":{"action.destructive_requires_name":null}} (true is the default of 8.x)',
    });
  });
});

describe('config.same-host', () => {
  const disks = [disk('es-1', '10.0.0.5'), disk('es-2', '10.0.0.5'), disk('es-3', '10.0.0.6')];
  it('a primary and its replica on two nodes of one host warn, naming the shard and the host', () => {
    const f = sameHostFinding({ sameShardHost: false }, disks, [
      copy('service_v9_a', 0, true, 'es-1'),
      copy('service_v9_a', 0, false, 'es-2'),
    ]);
    expect(f).toMatchObject({
      id: 'config.same-host',
      severity: 'warn',
      finding: '1 shard has a primary and a replica on one host: losing the host loses both',
    });
    expect(f.evidence).toContain('service_v9_a shard 0: es-1 and es-2 on 10.0.0.5');
  });

  it('nodes sharing a host without the setting warn even before two copies meet; the setting, or one node a host, holds', () => {
    const apart = [copy('service_v9_a', 0, true, 'es-1'), copy('service_v9_a', 0, false, 'es-3')];
    expect(sameHostFinding({ sameShardHost: false }, disks, apart).finding).toBe(
      'several data nodes share a host without same_shard.host: a primary and its replica may be put on one host',
    );
    expect(sameHostFinding({ sameShardHost: true }, disks, apart).severity).toBe('ok');
    expect(sameHostFinding({ sameShardHost: false }, [disk('es-1', 'a'), disk('es-2', 'b')], apart)).toMatchObject({
      severity: 'ok',
      finding: 'one data node per host',
    });
    expect(settings.sameShardHost).toBe(false);
  });
});

describe('config.license', () => {
  const NOW = Date.parse('2026-11-28T12:00:00Z');
  it('the recorded basic licence: active, no expiry', () => {
    const l = parseLicense(raw('doctor-ii', 'license'));
    expect(l).toMatchObject({ available: true, type: 'basic', status: 'active', expiryMs: null });
    expect(licenseFinding(l, NOW)).toMatchObject({ severity: 'ok', finding: 'basic licence active, no expiry' });
  });

  it('expired is critical, within 30 days a warning; a node without the API is said', () => {
    const gold = (days: number, status = 'active') => ({
      available: true as const,
      type: 'gold',
      status,
      expiryMs: NOW + days * 86_400_000,
      issuedTo: 'x',
    });
    expect(licenseFinding(gold(-1, 'expired'), NOW).severity).toBe('critical');
    expect(licenseFinding(gold(10), NOW)).toMatchObject({ severity: 'warn', finding: 'the gold licence expires in 10 days' });
    expect(licenseFinding(gold(90), NOW).severity).toBe('ok');
    expect(licenseFinding({ available: false, why: 'not on this node' }, NOW).severity).toBe('unknown');
  });
});

describe('config.dangling', () => {
  it("the recorded dangling index (another cluster's folder on this node's disk) warns with its uuid and what to do", () => {
    const view = parseDangling(raw('doctor-ii', 'dangling'));
    const f = danglingFinding(view);
    expect(f).toMatchObject({
      id: 'config.dangling',
      severity: 'warn',
      finding: '1 dangling index on disk that the cluster does not know: service_v9_gone',
    });
    expect(f.evidence[0]).toMatch(/^service_v9_gone \(uuid [\w-]+, created 20\d\d-.*\) on node\(s\) [\w-]+$/);
    expect(f.remedy).toMatch(/POST _dangling\/<uuid>\?accept_data_loss=true/);
  });

  it('none holds', () => {
    expect(danglingFinding(parseDangling({ dangling_indices: [] }))).toMatchObject({ severity: 'ok', finding: 'no dangling index' });
  });
});

describe('config.frozen-flood', () => {
  const recordedNodes = parseDoctorNodes(raw('doctor-ii', 'nodes'), {});
  it('the recorded node holds every data role (data_frozen among them): no dedicated frozen node, the recorded frozen watermark said', () => {
    expect(settings.frozenFlood?.raw).toBe('95%');
    const f = frozenFloodFinding(settings, recordedNodes, [disk('doctor-rec', 'h')]);
    expect(f).toMatchObject({ severity: 'ok' });
    expect(f.evidence).toEqual([
      'cluster.routing.allocation.disk.watermark.flood_stage.frozen = 95%, max_headroom 20.0gb',
      'nodes with data_frozen among other data roles: doctor-rec',
    ]);
  });

  it('a dedicated frozen node past the frozen flood stage is critical; below it holds', () => {
    const frozen = [{ name: 'frozen-1', roles: ['data_frozen'] }];
    // 95% with a 20 GB headroom on a 100 GB disk: 5 GB must stay free.
    expect(frozenFloodFinding(settings, frozen, [disk('frozen-1', 'h', 3 * GB)])).toMatchObject({ severity: 'critical' });
    expect(frozenFloodFinding(settings, frozen, [disk('frozen-1', 'h', 8 * GB)]).severity).toBe('ok');
  });
});
