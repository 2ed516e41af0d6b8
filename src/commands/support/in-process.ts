// A command run inside the console (its command line, `:cat allocation`): the same code the CLI
// runs, with its text going to the console's view instead of the terminal Ink draws on, and the
// console's connection instead of one resolved from flags (no prompt: Ink holds the keyboard).
// One mechanism, scoped to the run's own async calls (AsyncLocalStorage), so nothing else the
// process prints is caught and two runs never mix. output.ts, paint.ts and common.ts read it.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ResolvedConnection } from '../../config/connection';
import type { Profile } from '../../config/profiles';
import type { ProfileBadge } from '../../domain/console/profile-badge';

export interface InProcessRun {
  /** Takes the command's text (stdout and stderr in the order written), already made display-safe. */
  write(text: string): void;
  /** The console's connection: a run opens its own client on it (and closes it), never a prompt. */
  connection: { profileName: string; profile: Profile | undefined; conn: ResolvedConnection; badge?: ProfileBadge };
}

const runs = new AsyncLocalStorage<InProcessRun>();

export function runInProcess<T>(run: InProcessRun, body: () => Promise<T>): Promise<T> {
  return runs.run(run, body);
}

/** The run this call belongs to, or undefined in a plain CLI process. */
export function inProcessRun(): InProcessRun | undefined {
  return runs.getStore();
}
