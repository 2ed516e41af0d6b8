// What the bundles (dev/build.mjs, the benchmark's scripts) replace at build time, to load less at
// start-up: ~1.1 MB of the 3.7 MB the console used to parse before its first frame.
import path from 'node:path';

export function bundleAliases(root) {
  return {
    // Ink imports react-devtools-core only when DEV is set.
    'react-devtools-core': path.join(root, 'dev/stubs/react-devtools-core.mjs'),
    // Only the client's ES|QL-to-Arrow helpers use it (never called by shardeck).
    'apache-arrow/Arrow.node': path.join(root, 'dev/stubs/apache-arrow.cjs'),
    // The transport uses one function of @opentelemetry/core (suppressTracing); its index also
    // loads the semantic conventions (~190 KB). The same function from its own file.
    '@opentelemetry/core': path.join(root, 'node_modules/@opentelemetry/core/build/src/trace/suppress-tracing.js'),
    // conf validates with Ajv only when given a schema; shardeck's config has none (config/profiles.ts).
    'ajv/dist/2020.js': path.join(root, 'dev/stubs/ajv.cjs'),
    'ajv-formats': path.join(root, 'dev/stubs/ajv-formats.cjs'),
    // conf uses semver only for migrations; shardeck gives none (dev/stubs/semver.cjs).
    semver: path.join(root, 'dev/stubs/semver.cjs'),
    // string-width's tables and regular expressions load on its first non-ASCII text (dev/stubs/string-width.mjs).
    'string-width': path.join(root, 'dev/stubs/string-width.mjs'),
    // yoga-layout's WebAssembly loaded without Node's fetch (dev/stubs/yoga-load.mjs): ~20 ms.
    'yoga-layout': path.join(root, 'dev/stubs/yoga.mjs'),
  };
}
