// Entry of the single executable (npm run package): the CLI. Yoga's WebAssembly loads with Ink and
// is awaited before a screen's first frame (src/ui/app/yoga-ready.ts), so a command that draws no
// screen does not load it.
import('../../src/cli.tsx');
