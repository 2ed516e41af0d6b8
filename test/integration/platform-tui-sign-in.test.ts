// startPlatformSignIn keeps store.platform and store.projects current for the TUI, against the
// reference platform server over real HTTP.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPlatformServer } from '../../dev/platform-server.mjs';
import { saveRefreshToken } from '../../src/config/secrets';
import { startPlatformSignIn } from '../../src/services/platform-sign-in';
import { createConsoleStore, type ConsoleStore } from '../../src/store/console';
import { waitUntil } from '../helpers/wait-until';

let server: Awaited<ReturnType<typeof startPlatformServer>>;
let dir: string;
beforeAll(async () => {
  server = await startPlatformServer({ tokenTtlSeconds: 600 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shardeck-tui-session-'));
  process.env.SHARDECK_CONFIG_DIR = path.join(dir, 'conf');
});
afterAll(async () => {
  delete process.env.SHARDECK_CONFIG_DIR;
  fs.rmSync(dir, { recursive: true, force: true });
  await server.close();
});

function newStore(): ConsoleStore {
  return createConsoleStore({ connection: { url: 'http://127.0.0.1:9200', profile: 'p', insecure: false, readOnly: false } });
}

/** Waits until the store satisfies `pred`; a timeout shows the platform state last seen. */
async function until(store: ConsoleStore, pred: (s: ReturnType<ConsoleStore['getState']>) => boolean, ms = 5000) {
  await waitUntil('the platform state asked for', () => store.getState(), pred, { timeoutMs: ms, intervalMs: 10 }).catch((e: Error) => {
    throw new Error(`${e.message.split('; last seen')[0]}; platform state: ${JSON.stringify(store.getState().platform)}`);
  });
}

/**
 * Records the timers services/platform-sign-in.ts sets ("wait <ms>") and runs ("waited <ms>"),
 * in `events`; the real timers run them (a timer never fires early). Not the HTTP client's nor
 * the test's own timers. mockRestore() ends it.
 */
function recordTimers(events: string[]) {
  const realSetTimeout = globalThis.setTimeout;
  return vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const ours = /services\/platform-sign-in\.ts/.test(new Error().stack ?? '');
    if (ours) events.push(`wait ${ms}`);
    return realSetTimeout(() => {
      if (ours) events.push(`waited ${ms}`);
      fn(...args);
    }, ms);
  }) as typeof setTimeout);
}

describe('startPlatformSignIn', () => {
  it('signs in, fills user@tenant and the project names, survives expiry, shows a 410 and recovers after a login', async () => {
    const token = server.addUser();
    saveRefreshToken('p', token);
    const store = newStore();
    const seen: string[] = [];
    store.subscribe((s) => seen.push(s.platform.state));
    const handle = startPlatformSignIn(
      store,
      'p',
      { url: 'http://127.0.0.1:9200', platformUrl: server.url },
      { projectsIntervalMs: 50, retryBaseMs: 50 },
    );
    try {
      await until(store, (s) => s.projects !== undefined);
      expect(store.getState().platform).toEqual({ state: 'signed-in', user: 'alice', tenant: 'acme' });
      expect(store.getState().projects).toMatchObject({ alpha: 'Alpha Logistics', kb: 'Knowledge Base' });
      expect(seen[0]).toBe('signing-in');

      // Expiry: invisible apart from a refresh; the names stay.
      const before = server.exchanges;
      server.expireAccessTokens();
      await until(store, () => server.exchanges > before);
      await until(store, (s) => s.platform.state === 'signed-in');
      expect(store.getState().projects?.alpha).toBe('Alpha Logistics');

      // Revoked: one clear message, the TUI keeps its last project names, no more exchanges.
      server.revoke(token);
      server.expireAccessTokens();
      await until(store, (s) => s.platform.state === 'error');
      expect(store.getState().platform.message).toMatch(
        /security reason: generate a new one under API Access in the platform settings, then run shardeck login --profile p/,
      );
      const afterRevoke = server.exchanges;
      // Six more poll periods run to their end (each one's timer fired and its tick set the next).
      const ticks: string[] = [];
      const timers = recordTimers(ticks);
      try {
        await waitUntil(
          'six poll periods after the revocation',
          () => ticks.filter((e) => e === 'waited 50').length,
          (n) => n >= 6 && ticks.at(-1) === 'wait 50',
          { intervalMs: 10 },
        );
      } finally {
        timers.mockRestore();
      }
      expect(server.exchanges).toBe(afterRevoke);
      expect(store.getState().projects?.alpha).toBe('Alpha Logistics');

      // shardeck login in another terminal stores a new token: the session comes back by itself.
      server.setProjects([{ id: 'Alpha', name: 'Alpha renamed' }]);
      saveRefreshToken('p', server.addUser());
      await until(store, (s) => s.platform.state === 'signed-in' && s.projects?.alpha === 'Alpha renamed');
    } finally {
      handle.stop();
    }
  });

  it('says what to do when the profile is not signed in', () => {
    const store = newStore();
    startPlatformSignIn(store, 'nobody', { url: 'http://127.0.0.1:9200', platformUrl: server.url }).stop();
    expect(store.getState().platform).toEqual({
      state: 'signed-out',
      message: 'profile "nobody" is not signed in to the platform: run shardeck login --profile nobody',
    });
    // A profile without a platform is simply signed out, with nothing to nag about.
    startPlatformSignIn(store, 'nourl', { url: 'http://127.0.0.1:9200' }).stop();
    expect(store.getState().platform).toEqual({ state: 'signed-out' });
  });

  it('shows an unreachable platform as an error and retries with growing delays', async () => {
    // Drops every connection once the request arrives, like a platform behind a broken network.
    // (Dropped before the request is read, Node 20's fetch of a POST in a fresh process waits for
    // its 15 s timeout instead of failing: the test then failed when run alone.)
    const events: string[] = [];
    const dead = net.createServer((c) => {
      events.push('attempt');
      c.once('data', () => c.destroy());
    });
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(dead.address() as net.AddressInfo).port}`;
    saveRefreshToken('down', 'rt_whatever');
    const store = newStore();
    const timers = recordTimers(events);
    const handle = startPlatformSignIn(store, 'down', { url: 'http://127.0.0.1:9200', platformUrl: url }, { retryBaseMs: 40 });
    try {
      await until(store, (s) => s.platform.state === 'error');
      expect(store.getState().platform.message).toMatch(/^cannot reach the platform at http:\/\/127\.0\.0\.1:\d+ \(/);
      await waitUntil(
        'five attempts',
        () => events.filter((e) => e === 'attempt').length,
        (n) => n >= 5,
        { timeoutMs: 10_000, intervalMs: 5 },
      );
      // Each attempt after the first waited out a delay twice the last: 40, 80, 160, 320 ms, not
      // the base delay of a tight loop.
      expect(events.slice(0, 13)).toEqual(['attempt', ...[40, 80, 160, 320].flatMap((ms) => [`wait ${ms}`, `waited ${ms}`, 'attempt'])]);
    } finally {
      handle.stop();
      timers.mockRestore();
      dead.close();
    }
  });
});
