// Issue 40: root meets other local users in one place, src/boundary/ (docs/ARCHITECTURE.md,
// docs/THREATS.md). Read from the real sources: no code outside it starts a program, and only the
// files listed here (each with why) touch the file system at all, none of them reading /proc, the
// user database or a file's text directly (they read through the boundary). Every rule is also
// run on planted offenders, which it must catch.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

/** Where a program may be started: the one spawn (programs.ts) and getent (users.ts). */
const PROGRAM_FILES = ['boundary/programs.ts', 'boundary/users.ts'];

/**
 * Files outside boundary/ that may use node:fs, and why: each touches only the running user's own
 * files, or makes a folder it then judges by lstat, or only watches. A new entry needs a reason
 * an operator would accept; reading what another user controls belongs in boundary/.
 */
const FS_OUTSIDE_BOUNDARY: Record<string, string> = {
  'config/files.ts': "the operator's own 0700 config folder, and lock files created O_EXCL (read back through boundary/files.ts)",
  'config/cluster-lock.ts': 'makes the shared lock folder itself (1777), then judges it by lstat: a link or another owner is refused',
  'config/completion-cache.ts': "the operator's own completion cache in its config folder",
  'config/local-files.ts': "moves a broken file of the operator's own aside (rename in its own folder)",
  'config/runtime.ts': "this user's own share-socket folder (made, then lstat-checked: owner and mode)",
  'config/search-curl.ts': 'checks that the search_curl wrapper is an executable file (stat and access: nothing opened)',
  'services/share-server.ts': 'its own socket in its own share folder (a stale socket of its own removed after lstat)',
  'services/timeline.ts': 'watches folders for changes (fs.watch: nothing opened or read)',
};

/** Outside boundary/, even the files above never read these directly. */
const DIRECT_READS = [
  { what: 'a /proc file', re: /[`'"]\/proc\// },
  { what: 'the user or group database', re: /\/etc\/(?:passwd|group|shadow)/ },
  { what: 'a whole file read without a cap or O_NONBLOCK', re: /\b(?:readFileSync|createReadStream|readFile)\s*\(/ },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

/** Code without comments (a rule named in a comment is not a use). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const importsModule = (text: string, mod: string) =>
  new RegExp(`(?:from|import|require)\\s*\\(?\\s*['"](?:node:)?${mod}(?:/promises)?['"]`).test(code(text));

/** Every way `rel` (a path under src/, with its text) crosses the boundary's rules. */
function boundaryViolations(rel: string, text: string): string[] {
  const out: string[] = [];
  const inBoundary = rel.startsWith('boundary/');
  if (importsModule(text, 'child_process') && !PROGRAM_FILES.includes(rel))
    out.push(`${rel} starts programs (child_process): only boundary/programs.ts may (a session of its own, no terminal)`);
  if (!inBoundary && importsModule(text, 'fs') && !(rel in FS_OUTSIDE_BOUNDARY))
    out.push(`${rel} uses node:fs outside boundary/: read and write through boundary/ (or list it, with why, in FS_OUTSIDE_BOUNDARY)`);
  if (!inBoundary)
    for (const r of DIRECT_READS) if (r.re.test(code(text))) out.push(`${rel} reads ${r.what} itself: read it through boundary/`);
  return out;
}

describe('the privilege boundary (issue 40)', () => {
  it('no file of src/ crosses it', () => {
    const found = sourceFiles(SRC).flatMap((f) => boundaryViolations(path.relative(SRC, f), fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('every file listed as allowed exists and still needs to be listed', () => {
    for (const rel of Object.keys(FS_OUTSIDE_BOUNDARY)) {
      const text = fs.readFileSync(path.join(SRC, rel), 'utf8');
      expect(importsModule(text, 'fs'), rel).toBe(true);
    }
  });

  it('catches planted offenders', () => {
    expect(boundaryViolations('services/new-step.ts', "import { spawn } from 'node:child_process';\nspawn('runuser', []);")).toEqual([
      'services/new-step.ts starts programs (child_process): only boundary/programs.ts may (a session of its own, no terminal)',
    ]);
    expect(boundaryViolations('boundary/host-files.ts', "import { spawn } from 'child_process';")).toHaveLength(1);
    expect(boundaryViolations('services/x.ts', "const cp = await import('node:child_process');")).toHaveLength(1);
    expect(boundaryViolations('services/reader.ts', "import fs from 'node:fs';\nfs.openSync(p, 'r');")).toEqual([
      'services/reader.ts uses node:fs outside boundary/: read and write through boundary/ (or list it, with why, in FS_OUTSIDE_BOUNDARY)',
    ]);
    expect(boundaryViolations('services/reader.ts', "import { promises } from 'node:fs/promises';")).toHaveLength(1);
    expect(boundaryViolations('config/files.ts', "import fs from 'node:fs';\nfs.readFileSync(`/proc/${pid}/status`);")).toEqual([
      'config/files.ts reads a /proc file itself: read it through boundary/',
      'config/files.ts reads a whole file read without a cap or O_NONBLOCK itself: read it through boundary/',
    ]);
    expect(boundaryViolations('domain/x.ts', "const users = '/etc/passwd';")).toEqual([
      'domain/x.ts reads the user or group database itself: read it through boundary/',
    ]);
    // Comments that name the rules are not uses; the boundary itself may read and spawn.
    expect(boundaryViolations('services/ok.ts', "// never readFileSync('/proc/1/status') here\nexport const x = 1;")).toEqual([]);
    expect(boundaryViolations('boundary/programs.ts', "import { spawn } from 'node:child_process';")).toEqual([]);
    expect(boundaryViolations('boundary/host-reads.ts', "import fs from 'node:fs';\nfs.readFileSync('/proc/1/status');")).toEqual([]);
  });
});
