// What the real-node tests share: raw HTTP to the test node (how a test sets up and checks the
// cluster behind shardeck's back), the built CLI pointed at it with a private config dir, and the
// audit lines that config dir collected.
import fs from 'node:fs';
import path from 'node:path';
import { runCli, type CliResult } from './run-cli';

export interface EsAnswer {
  status: number;
  body: any;
}

export async function esCall(url: string, method: string, p: string, body?: unknown): Promise<EsAnswer> {
  const res = await fetch(url + p, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** The node's url and the config dir are read at call time: tests set them in beforeAll. */
export function cliAgainst(url: () => string, configDir: () => string): (args: string[]) => Promise<CliResult> {
  return (args) => runCli([args[0], '--url', url(), ...args.slice(1)], { env: { SHARDECK_CONFIG_DIR: configDir() } });
}

export function auditLinesIn(configDir: string): string[] {
  const file = path.join(configDir, 'audit.log');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
}
