// Rewrites the key table in README.md from the keymap (src/keys/keymap.ts), between the markers
// <!-- keys:start --> and <!-- keys:end -->. Run: npm run readme:keys
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { keymapMarkdown } from '../src/keys/keymap';

const readme = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'README.md');
const text = fs.readFileSync(readme, 'utf8');
const next = text.replace(/<!-- keys:start -->[\s\S]*<!-- keys:end -->/, `<!-- keys:start -->\n${keymapMarkdown()}\n<!-- keys:end -->`);
fs.writeFileSync(readme, next);
