// Glue between a profile, its stored refresh token and the platform sign-in: the subcommands
// sign in with it, and the TUI keeps store.platform (who, which tenant, the sign-in state)
// and store.projects (names by lowercase project id) current, refreshing the token invisibly.
import { UsageError } from '../config/connection';
import type { Profile } from '../config/profiles';
import { readRefreshToken, saveRefreshToken, withRefreshLock } from '../config/secrets';
import { projectNamesById } from '../domain/projects';
import { fetchProjects } from '../platform/projects';
import { PlatformError, PlatformSignIn, platformUrlProblem, type PlatformSignInOptions } from '../platform/sign-in';
import type { ConsoleStore } from '../store/console';
import { backoffMs } from './poller';

/** Sign-in options tests (and only tests) tune: lifetimes, retry delays. */
export type SignInTuning = Partial<Omit<PlatformSignInOptions, 'baseUrl' | 'refreshToken' | 'tokens' | 'stored'>>;

export function loginCommandFor(profileName: string): string {
  return `shardeck login --profile ${profileName}`;
}

/** The platform sign-in of a profile, from its platform URL and its stored refresh token. */
export function openProfileSignIn(profileName: string, profile: Profile | undefined, tuning: SignInTuning = {}): PlatformSignIn {
  if (!profile?.platformUrl) {
    throw new UsageError(`profile "${profileName}" has no platform URL: run ${loginCommandFor(profileName)} --platform URL`);
  }
  // Before the token is even read: a plain-http platform elsewhere that was never accepted is refused.
  const bad = platformUrlProblem(profile.platformUrl, { insecureHttp: profile.platformInsecureHttp });
  if (bad) throw new UsageError(`profile "${profileName}": ${bad}`);
  const refreshToken = readRefreshToken(profileName);
  if (!refreshToken) throw new UsageError(`profile "${profileName}" is not signed in to the platform: run ${loginCommandFor(profileName)}`);
  return new PlatformSignIn({
    loginCommand: loginCommandFor(profileName),
    ...tuning,
    baseUrl: profile.platformUrl,
    insecureHttp: profile.platformInsecureHttp,
    refreshToken,
    stored: true,
    tokens: { load: () => readRefreshToken(profileName), save: (t) => saveRefreshToken(profileName, t), exclusive: withRefreshLock },
  });
}

export interface StartPlatformSignInOptions {
  /** How often the project list is fetched again (it also keeps the access token fresh). */
  projectsIntervalMs?: number;
  /** First delay after a failure; doubles per failure up to a minute. */
  retryBaseMs?: number;
  tuning?: SignInTuning;
}

/**
 * Signs the profile in and keeps store.platform and store.projects current until stop().
 * Never throws: every failure becomes store.platform = { state: 'error', message }, and the TUI
 * stays up. After a 404/410 nothing is sent until a new `shardeck login` stores another token.
 */
export function startPlatformSignIn(
  store: ConsoleStore,
  profileName: string,
  profile: Profile | undefined,
  opts: StartPlatformSignInOptions = {},
): { stop(): void } {
  const interval = opts.projectsIntervalMs ?? 60_000;
  const retryBase = opts.retryBaseMs ?? 5_000;
  // No platform configured for this profile: nothing to sign in to, nothing to nag about.
  if (!profile?.platformUrl) {
    store.setState({ platform: { state: 'signed-out' } });
    return { stop() {} };
  }
  let platform: PlatformSignIn;
  try {
    platform = openProfileSignIn(profileName, profile, opts.tuning);
  } catch (e) {
    store.setState({ platform: { state: 'signed-out', message: (e as Error).message } });
    return { stop() {} };
  }
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;

  const show = (state: PlatformSignIn['status']) => {
    if (stopped) return;
    const info = platform.info;
    store.setState({ platform: { ...state, user: info?.user_id, tenant: info?.tenant } });
  };
  const unsubscribe = platform.onStatus(show);
  show({ state: 'signing-in' });

  const tick = async () => {
    try {
      const projects = await fetchProjects(platform);
      if (stopped) return;
      store.setState({ projects: projectNamesById(projects) });
      failures = 0;
    } catch (e) {
      if (stopped) return;
      // PlatformErrors already set the state through onStatus; anything else (an unreadable
      // secrets file) is shown here. Last known projects stay: stale names beat none.
      if (!(e instanceof PlatformError)) show({ state: 'error', message: (e as Error).message });
      // A final error costs nothing to re-check: no request goes out until a new login.
      if (!(e instanceof PlatformError && e.final)) failures++;
    }
    if (!stopped) timer = setTimeout(() => void tick(), failures ? backoffMs(retryBase, failures - 1) : interval);
  };
  void tick();

  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      unsubscribe();
    },
  };
}
