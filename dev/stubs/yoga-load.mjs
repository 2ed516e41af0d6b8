// yoga-layout's WebAssembly, loaded without Node's fetch. Its Emscripten loader sees a global
// `fetch` and fetches its own base64 data: URL through it, which makes Node load its internal
// undici first (~20 ms of the console's start-up, measured with --cpu-prof). With `fetch` hidden
// for the synchronous call, the loader decodes the same bytes itself; the module is the same.
// Files, not the package's entry: its exports map hides them, and its entry awaits at the top level.
import loadYogaImpl from '../../node_modules/yoga-layout/dist/binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from '../../node_modules/yoga-layout/dist/src/wrapAssembly.js';

export function loadYoga() {
  // The descriptor, not the value: reading globalThis.fetch would load undici.
  const fetchProperty = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  let loading;
  try {
    Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });
    loading = loadYogaImpl();
  } finally {
    if (fetchProperty) Object.defineProperty(globalThis, 'fetch', fetchProperty);
    else delete globalThis.fetch;
  }
  return loading.then(wrapAssembly);
}

export * from '../../node_modules/yoga-layout/dist/src/generated/YGEnums.js';
