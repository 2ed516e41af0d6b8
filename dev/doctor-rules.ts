// Rewrites the rule table in docs/DOCTOR-RULES.md from the doctor's rules (src/domain/doctor/rules.ts),
// between the markers <!-- rules:start --> and <!-- rules:end -->. Run: npm run docs:rules
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ruleTableMarkdown } from '../src/domain/doctor/rules';

const file = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'docs', 'DOCTOR-RULES.md');
const text = fs.readFileSync(file, 'utf8');
fs.writeFileSync(
  file,
  text.replace(/<!-- rules:start -->[\s\S]*<!-- rules:end -->/, `<!-- rules:start -->\n${ruleTableMarkdown()}\n<!-- rules:end -->`),
);
