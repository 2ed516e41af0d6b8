// npm run docs: writes every generated section of README.md and docs/ from its one source (the
// command table, the keymap, the doctor's rules, the version smoke's results): dev/docs-sections.ts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SECTIONS, withSection } from './docs-sections';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
for (const s of SECTIONS) {
  const file = path.join(root, s.file);
  const text = fs.readFileSync(file, 'utf8');
  const next = withSection(text, s.name, await s.make(), s.file);
  if (next !== text) {
    fs.writeFileSync(file, next);
    process.stdout.write(`${s.file}: ${s.name} written\n`);
  }
}
