// The rules that guard data (issue 32): confirmation, plan paths and targets, delete queries and
// dates, disk levels and forecast, share messages, project naming, the corruption plan. The same
// settings as stryker.config.json, with the higher bar these files must clear.
import fs from 'node:fs';

const base = JSON.parse(fs.readFileSync(new URL('./stryker.config.json', import.meta.url), 'utf8'));

export default {
  ...base,
  mutate: [
    'src/domain/mutation/**/*.ts',
    'src/domain/delete/**/*.ts',
    'src/domain/nodes/disk.ts',
    'src/domain/doctor/disk.ts',
    'src/domain/doctor/forecast.ts',
    'src/domain/share.ts',
    'src/domain/projects.ts',
    'src/domain/naming.ts',
    'src/domain/corruption/**/*.ts',
  ],
  thresholds: { ...base.thresholds, break: 85 },
  incrementalFile: 'reports/mutation/guarded-incremental.json',
  htmlReporter: { fileName: 'reports/mutation/guarded.html' },
  jsonReporter: { fileName: 'reports/mutation/guarded.json' },
};
