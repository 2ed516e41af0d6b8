// What the corruption tests share: the recorded fixtures of test/fixtures/corrupt/ (a real 8.19 node
// whose segment _0 had one byte changed) and the facts of one checklist.
import fs from 'node:fs';
import type { PlanFacts } from '../../../src/domain/corruption/plan';

export const fixture = (name: string) => fs.readFileSync(new URL(`../../fixtures/corrupt/${name}`, import.meta.url), 'utf8');
export const binaryFixture = (name: string) => fs.readFileSync(new URL(`../../fixtures/corrupt/${name}`, import.meta.url), 'latin1');

export const facts: PlanFacts = {
  index: 'service_v9_abc',
  shard: 0,
  node: { name: 'n1', id: 'ID1' },
  folder: '/data/indices/UUID/0',
  home: '/usr/share/elasticsearch',
  java: '/usr/share/elasticsearch/jdk/bin/java',
  esUser: 'elasticsearch',
  confDir: '/etc/elasticsearch',
  backupDir: '/backups',
  stamp: '20261123T1200Z',
  conn: { url: 'https://127.0.0.1:9200', user: 'elastic' },
  hasShardTool: true,
};
