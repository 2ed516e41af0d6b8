// Setup file of the snapshots project: every screen file a test compares is written down (one line
// per screen, in the folder test/setup/screens.ts hands over), so the run's teardown can name the
// screens in __screens__/ that no test compares any more (orphans).
import fs from 'node:fs';
import path from 'node:path';
import { chai, expect, inject } from 'vitest';

chai.Assertion.overwriteMethod(
  'toMatchFileSnapshot',
  (original: (...args: unknown[]) => unknown) =>
    function (this: object, file: string, ...rest: unknown[]) {
      const testPath = expect.getState().testPath ?? '';
      const screen = path.resolve(path.dirname(testPath), file);
      fs.appendFileSync(path.join(inject('screensRecordDir'), `${process.pid}.txt`), `${testPath}\t${screen}\n`);
      return original.call(this, file, ...rest);
    },
);
