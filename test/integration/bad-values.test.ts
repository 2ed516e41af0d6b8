// Values that overflow a date or exceed what Elasticsearch accepts are refused by the built CLI
// with exit 64 and one sentence, before anything is sent: the node URL is a closed port, so any
// attempt to reach it would exit 3 instead.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../helpers/run-cli';

let dir: string;
let url: string;

beforeAll(async () => {
  ensureBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-bad-values-'));
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}`;
  await new Promise((r) => srv.close(r));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const CASES: [string, string[], RegExp][] = [
  [
    'age overflowing a date',
    ['delete-by-query', 'service_v9_x', '--older-than', '300000000d', '--expect', '1', '--yes'],
    /before the year 1: give an age of at most \d+d/,
  ],
  ['February 31st', ['delete-by-query', 'service_v9_x', '--older-than', '2026-02-31', '--dry-run'], /not a day of the calendar/],
  ['month 13', ['delete-by-query', 'service_v9_x', '--older-than', '2026-13-01', '--dry-run'], /neither an age|not a day of the calendar/],
  [
    'a rate over a Java float',
    ['delete-by-query', 'service_v9_x', '--older-than', '90d', '--requests-per-second', '9'.repeat(40), '--dry-run'],
    /more than Elasticsearch accepts/,
  ],
  [
    'an inexact --expect',
    ['delete-by-query', 'service_v9_x', '--older-than', '90d', '--expect', '99999999999999999999', '--yes'],
    /larger than any count/,
  ],
  ['scroll limit over an int', ['scroll-limit', '3000000000', '--yes'], /at most 2147483647/],
  ['replicas over the limit', ['replicas', 'set', 'service_v9_x', '3000000000', '--yes'], /too large/],
  ['replicas --timeout of 1e300 seconds', ['replicas', 'set', 'service_v9_x', '0', '--timeout', '1e300', '--yes'], /--timeout "1e300"/],
  ['reroute --timeout of ten years', ['reroute', '--retry-failed', '--timeout', '315360000', '--yes'], /more than a week/],
];

describe('bad values are refused before anything is sent (exit 64)', () => {
  for (const json of [false, true]) {
    it.each(CASES)(`%s${json ? ' (--json)' : ''}`, async (_what, args, message) => {
      const r = await runCli([...args, '--url', url, ...(json ? ['--json'] : [])], {
        env: { SHARDECK_CONFIG_DIR: path.join(dir, 'conf') },
      });
      expect(r.stderr).toMatch(message);
      expect(r.code).toBe(64);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      if (json) expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: expect.stringMatching(message) });
    });
  }
});
