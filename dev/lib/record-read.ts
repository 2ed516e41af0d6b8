// Records one polled read of cluster/resources.ts as a fixture, exactly as the poller sends it: its
// answer in <file>.json and, for a read of two requests, the second's in <file>.alongside.json
// (test/helpers/recorded.ts reads them back the same way).
import fs from 'node:fs';
import path from 'node:path';
import { requestsOf } from '../../src/cluster/resources';
import type { ResourceName } from '../../src/store/console';

async function answer(url: string, request: { path: string; querystring?: Record<string, string> }): Promise<unknown> {
  const q = new URLSearchParams(request.querystring ?? {}).toString();
  const res = await fetch(`${url}${request.path}${q ? `?${q}` : ''}`);
  if (!res.ok) throw new Error(`${request.path}: ${res.status} ${await res.text()}`);
  return res.json();
}

const write = (file: string, body: unknown) => fs.writeFileSync(file, JSON.stringify(body, null, 1) + '\n');

export async function recordRead(url: string, name: ResourceName, dir: string, file: string = name): Promise<void> {
  const [first, second] = requestsOf(name);
  write(path.join(dir, `${file}.json`), await answer(url, first));
  if (second) write(path.join(dir, `${file}.alongside.json`), await answer(url, second));
}
