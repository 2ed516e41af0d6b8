// Broken local files, through the built CLI: config.json (profiles live in it), secrets.json, the
// audit log, a timeline and the completion cache, each empty, truncated, not JSON, of the wrong
// types, or a folder in its place. Each ends with exit 64 (bad input: a file) and one sentence that
// names the file and what to do, in the one JSON failure shape under --json; no exit 70, no file
// changed behind the operator's back. The audit log and the timeline are logs: a torn last line is
// skipped and reported, never fatal, and the next record starts on a line of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';
import { clusterKey } from '../../src/domain/timeline';

let base: string;
let n = 0;
// Nothing listens there: a command that got past its files would end with exit 3, not 64.
const NOWHERE = 'http://127.0.0.1:9';

function freshDir(): string {
  const dir = path.join(base, `c${n++}`);
  fs.mkdirSync(dir, { mode: 0o700 });
  return dir;
}

function plant(dir: string, rel: string, content: string): string {
  const file = path.join(dir, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  if (content === 'folder') fs.mkdirSync(file);
  else fs.writeFileSync(file, content, { mode: 0o600 });
  return file;
}

const snapshot = (file: string) => (fs.statSync(file).isDirectory() ? 'folder' : fs.readFileSync(file, 'utf8'));

async function cli(dir: string, args: string[]) {
  const r = await runCli(args, { env: { SHARDECK_CONFIG_DIR: dir } });
  return r;
}

function expectJsonFailure(stdout: string, file: string) {
  const doc = JSON.parse(stdout) as { ok: boolean; error: string; code: number };
  expect(doc.ok).toBe(false);
  expect(doc.code).toBe(64);
  expect(doc.error).toContain(file);
  return doc;
}

beforeAll(() => {
  ensureBuilt();
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-broken-files-'));
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

const CONFIGS: [string, string][] = [
  ['empty', ''],
  ['truncated', '{"version":1,"profiles":{"a":{"url":"http://loc'],
  ['not JSON', 'version=1\n'],
  ['JSON null', 'null'],
  ['profiles of the wrong type', '{"version":1,"profiles":[]}'],
  ['a profile whose url is a number', '{"version":1,"profiles":{"a":{"url":5}}}'],
  ['lastProfile of the wrong type', '{"version":1,"profiles":{},"lastProfile":{}}'],
  ['a folder', 'folder'],
];

describe('config.json', () => {
  it.each(CONFIGS)(
    '%s: status --url elsewhere exits 64 naming the file and what to do; the file is left as it was',
    async (_what, content) => {
      const dir = freshDir();
      const file = plant(dir, 'config.json', content);
      const before = snapshot(file);
      const r = await cli(dir, ['status', '--url', NOWHERE, '--json']);
      expect(r.code).toBe(64);
      const doc = expectJsonFailure(r.stdout, file);
      expect(doc.error).toMatch(/move it aside|fix it/);
      expect(doc.error).not.toMatch(/Unexpected end of JSON input$/);
      expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
      expect(snapshot(file)).toBe(before);
    },
  );

  it('saving a profile into a broken config.json is refused; nothing is overwritten', async () => {
    const dir = freshDir();
    const file = plant(dir, 'config.json', '{"version":1,"profiles":{"keep":{"url":"http://a:9200"}');
    const r = await cli(dir, ['profiles', 'save', 'p', '--url', NOWHERE]);
    expect(r.code).toBe(64);
    expect(r.stderr).toContain(file);
    expect(fs.readFileSync(file, 'utf8')).toBe('{"version":1,"profiles":{"keep":{"url":"http://a:9200"}');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('config.json'))).toEqual(['config.json']);
  });

  it('moved aside as the message says, shardeck starts afresh and the broken file stays beside', async () => {
    const dir = freshDir();
    const file = plant(dir, 'config.json', '{"version":1,');
    const r = await cli(dir, ['profiles']);
    expect(r.code).toBe(64);
    const mv = /mv (\S+) ([^\s)]+)/.exec(r.stderr);
    expect(mv?.[1]).toBe(file);
    expect(mv?.[2]).toMatch(/config\.json\.broken-\d{8}T\d{6}Z$/);
    fs.renameSync(mv![1], mv![2]);
    const again = await cli(dir, ['profiles', 'save', 'p', '--url', NOWHERE]);
    expect(again.code).toBe(0);
    expect(fs.readFileSync(mv![2], 'utf8')).toBe('{"version":1,');
  });
});

describe('secrets.json', () => {
  it.each([
    ['empty', ''],
    ['truncated', '{"version":1,"refreshTokens":{"default":"SeCrEt'],
    ['JSON null', 'null'],
    ['refreshTokens of the wrong type', '{"version":1,"refreshTokens":"SeCrEt"}'],
    ['a token of the wrong type', '{"version":1,"refreshTokens":{"default":7}}'],
    ['a folder', 'folder'],
  ] as [string, string][])('%s: logout exits 64 naming the file and what to do, never its content', async (_what, content) => {
    const dir = freshDir();
    const file = plant(dir, 'secrets.json', content);
    const before = snapshot(file);
    const r = await cli(dir, ['logout', '--json']);
    expect(r.code).toBe(64);
    const doc = expectJsonFailure(r.stdout, file);
    expect(doc.error).toMatch(/shardeck login/);
    expect(doc.error).not.toContain('SeCrEt');
    expect(snapshot(file)).toBe(before);
  });
});

describe('audit.log', () => {
  const sending = (id: string) =>
    JSON.stringify({
      id,
      phase: 'sending',
      time: '2026-01-01T00:00:00.000Z',
      profile: 'p',
      url: NOWHERE,
      risk: 'low',
      target: 'x',
      summary: `change ${id}`,
      confirmedBy: 'flag',
    });

  it('a torn last line is skipped and reported; the records before it are listed (exit 0)', async () => {
    const dir = freshDir();
    const file = plant(dir, 'audit.log', `${sending('a')}\n${sending('b').slice(0, 40)}`);
    const r = await cli(dir, ['audit', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { unreadable: number; tornLastLine: boolean; records: { id: string }[] };
    expect(doc.records.map((x) => x.id)).toEqual(['a']);
    expect(doc.unreadable).toBe(1);
    expect(doc.tornLastLine).toBe(true);
    const text = await cli(dir, ['audit']);
    expect(text.code).toBe(0);
    expect(text.stderr).toMatch(/last line .*torn/);
    expect(text.stderr).toContain(file);
  });

  it('lines of the wrong type (null, a number, a string) are skipped and counted, never fatal', async () => {
    const dir = freshDir();
    plant(dir, 'audit.log', `null\n3\n"x"\n[]\n${sending('a')}\n{"of":null,"outcome":1}\n`);
    const r = await cli(dir, ['audit', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { unreadable: number; records: { id: string }[] };
    expect(doc.records.map((x) => x.id)).toEqual(['a']);
    expect(doc.unreadable).toBe(5);
  });

  it('the next record after a torn line starts on a line of its own (the torn one is not glued to it)', async () => {
    const dir = freshDir();
    const file = plant(dir, 'audit.log', `${sending('a')}\n${sending('b').slice(0, 40)}`);
    const { appendAudit } = await import('../../src/services/audit');
    appendAudit(JSON.parse(sending('c')), file);
    const r = await cli(dir, ['audit', '--json']);
    const doc = JSON.parse(r.stdout) as { unreadable: number; tornLastLine: boolean; records: { id: string }[] };
    expect(doc.records.map((x) => x.id)).toEqual(['a', 'c']);
    expect(doc.unreadable).toBe(1);
    expect(doc.tornLastLine).toBe(false);
  });

  it('a folder in its place: exit 64 naming the file and what to do', async () => {
    const dir = freshDir();
    const file = plant(dir, 'audit.log', 'folder');
    const r = await cli(dir, ['audit', '--json']);
    expect(r.code).toBe(64);
    expectJsonFailure(r.stdout, file);
  });
});

describe('timeline', () => {
  it('a torn last line and lines of the wrong type are skipped; incident still lists the rest (exit 0)', async () => {
    const dir = freshDir();
    const good = JSON.stringify({ kind: 'note', time: '2026-01-01T00:00:00.000Z', author: 'me', text: 'kept' });
    plant(dir, path.join('timeline', `${clusterKey(NOWHERE)}.jsonl`), `null\n${good}\n{"kind":"note","ti`);
    const r = await cli(dir, ['incident', '--url', NOWHERE, '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { entries: { text?: string }[] };
    expect(doc.entries.map((e) => e.text)).toEqual(['kept']);
  });

  it('a folder in its place: exit 64 naming the file', async () => {
    const dir = freshDir();
    const file = plant(dir, path.join('timeline', `${clusterKey(NOWHERE)}.jsonl`), 'folder');
    const r = await cli(dir, ['incident', '--url', NOWHERE, '--json']);
    expect(r.code).toBe(64);
    expectJsonFailure(r.stdout, file);
  });
});

describe('completion cache', () => {
  it('a folder in its place offers nothing (completion never fails a shell); the console sets it aside as .broken-<time> and writes a new one', async () => {
    const dir = freshDir();
    const file = plant(dir, 'completion-indices', 'folder');
    fs.writeFileSync(path.join(file, 'inside'), 'kept');
    const r = await cli(dir, ['help', '--complete', 'indices']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const { saveIndexNames } = await import('../../src/config/completion-cache');
    process.env.SHARDECK_CONFIG_DIR = dir;
    try {
      saveIndexNames(['idx-a']);
    } finally {
      delete process.env.SHARDECK_CONFIG_DIR;
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('idx-a\n');
    const aside = fs.readdirSync(dir).filter((f) => /^completion-indices\.broken-\d{8}T\d{6}Z$/.test(f));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, aside[0], 'inside'), 'utf8')).toBe('kept');
  });
});
