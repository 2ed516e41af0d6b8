// The live console (the default command): polls the node outside React and renders the panes.
// The terminal is always given back: on q, on Ctrl-C, on SIGTERM/SIGHUP and on a crash.
import React from 'react';
import { render } from 'ink';
import { UsageError } from '../config/connection';
import { saveIndexNames } from '../config/completion-cache';
import { createConsoleStore } from '../store/console';
import { Poller } from '../services/poller';
import { IndexDetailPoller } from '../services/index-detail';
import { App } from '../ui/app/App';
import { WizardServicesProvider } from '../ui/wizards/services';
import { createEsApi } from '../cluster/api';
import { Guard } from '../services/guard';
import { createWizardServices } from '../services/wizards';
import { connectionSecrets } from '../domain/host-env';
import { startPlatformSignIn } from '../services/platform-sign-in';
import { EXIT, openConnection, type CommandModule } from './common';

// The alternate screen: the console draws on its own page and the shell's screen comes back on exit.
const ENTER_ALT_SCREEN = '\u001b[?1049h';
const LEAVE_ALT_SCREEN = '\u001b[?1049l';
const SHOW_CURSOR = '\u001b[?25h';

export const MIN_INTERVAL_S = 1;

/** Keeps the shell completion's index names (config/completion-cache.ts) up to date with each poll. */
function cacheIndexNames(store: ReturnType<typeof createConsoleStore>): () => void {
  let last = '';
  return store.subscribe((s) => {
    const rows = s.snapshots.indices.data;
    if (!rows) return;
    const names = rows.map((r) => r.name).sort();
    const key = names.join('\n');
    if (key === last) return;
    last = key;
    try {
      saveIndexNames(names);
    } catch {
      // A config folder we may not write (shown elsewhere): completion only loses its index names.
    }
  });
}

export function parseInterval(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const s = Number(raw);
  if (!Number.isFinite(s) || s < MIN_INTERVAL_S) {
    throw new UsageError(`--interval "${raw}" is not a number of seconds: give ${MIN_INTERVAL_S} or more, e.g. --interval 5`);
  }
  return Math.round(s * 1000);
}

const tui: CommandModule = {
  summary: 'the live console: health, indices, shards, disk and nodes of the storage node, refreshed every few seconds',
  usage: 'usage: shardeck [tui] [--url URL] [--user NAME --password-env VAR|--password-file F] [--ca FILE] [--insecure] [--profile NAME] [--read-only] [--interval SECONDS]',
  options: { interval: { type: 'string' } },
  group: 'watch',
  flagHelp: {interval: "seconds between polls (default: the profile's, else 5; 1 or more)"},
  examples: ["shardeck", "shardeck --profile prod --read-only", "shardeck --url https://127.0.0.1:9200 --ca /etc/elasticsearch/certs/http_ca.crt --user elastic --password-file ~/.es-pw"],
  async run({ values }) {
    const intervalMs = parseInterval(values.interval as string | undefined);
    if (!process.stdout.isTTY || process.env.TERM === 'dumb') {
      // A pipe, cron, or a terminal that cannot move the cursor: the status text (and its exit code) is what it can use.
      process.stderr.write(
        `shardeck: the console needs a terminal${process.stdout.isTTY ? ' that can move the cursor (TERM is dumb)' : ''}; printing \`shardeck status\` instead (use it with --json in scripts)\n`,
      );
      const { default: status } = await import('./status');
      return status.run({ values, positionals: [] });
    }
    if (!process.stdin.isTTY) {
      process.stderr.write('shardeck: the console needs a terminal to read keys from; for scripts and checks use `shardeck status` (with --json)\n');
      return EXIT.usage;
    }
    const { client, conn, where, profileName, profile } = await openConnection(values);
    const store = createConsoleStore({
      connection: { url: where, profile: profileName, user: conn.user, insecure: Boolean(conn.insecure), readOnly: conn.readOnly },
      ...(profile?.templateVersion ? { templateVersion: profile.templateVersion } : {}),
      ...((intervalMs ?? profile?.intervalMs) ? { intervalMs: intervalMs ?? profile?.intervalMs } : {}),
    });
    const es = createEsApi(client, conn.url);
    const poller = new Poller(es, store);
    // The index detail's reads, only while it is open (Enter on an Indices row).
    const detail = new IndexDetailPoller(es, store);
    // The refresh key reads the open index detail again too.
    const pollControl = { refreshNow: () => Promise.all([poller.refreshNow(), detail.refreshNow()]).then(() => undefined), diagnose: () => poller.diagnose() };
    // Signs in to the platform when the profile has one (header user@tenant, project names).
    const platform = startPlatformSignIn(store, profileName, profile);
    // Every wizard's change goes through this one guard (preview, confirm, audit, verify).
    const guard = new Guard({ client, conn, profile: profileName, platformUser: () => store.getState().platform.user });
    const wizardServices = createWizardServices(es, guard, { serviceStop: profile?.serviceStop, serviceStart: profile?.serviceStart, hostSecrets: connectionSecrets(conn) });

    process.stdout.write(ENTER_ALT_SCREEN);
    let restored = false;
    const restore = () => {
      if (restored) return;
      restored = true;
      poller.stop();
      detail.stop();
      platform.stop();
      instance.unmount();
      process.stdout.write(SHOW_CURSOR + LEAVE_ALT_SCREEN);
    };
    const crash = (e: unknown) => {
      restore();
      process.stderr.write(`shardeck: the console crashed: ${(e as Error)?.stack ?? e}\n`);
      process.exit(70);
    };
    const signal = () => {
      restore();
      process.exit(130);
    };
    process.on('uncaughtException', crash);
    process.on('unhandledRejection', crash);
    process.on('SIGTERM', signal);
    process.on('SIGHUP', signal);

    const instance = render(
      <WizardServicesProvider value={wizardServices}>
        <App store={store} poller={pollControl} />
      </WizardServicesProvider>,
      {
      exitOnCtrlC: false,
      patchConsole: false,
      maxFps: 20,
      incrementalRendering: false,
      },
    );
    poller.start();
    detail.start();
    const stopIndexCache = cacheIndexNames(store);
    try {
      await instance.waitUntilExit();
    } finally {
      restore();
      stopIndexCache();
      void client.close();
      process.off('uncaughtException', crash);
      process.off('unhandledRejection', crash);
      process.off('SIGTERM', signal);
      process.off('SIGHUP', signal);
    }
    return EXIT.ok;
  },
};

export default tui;
