// Entry of the single executable (npm run package): Yoga's WebAssembly first, then the CLI.
import { ready } from 'yoga-layout';

ready.then(() => import('../../src/cli.tsx'));
