// This library, from its BUILT output only (`dist/index.js`, produced by `npm run build`).
// No TS loader, no src/ imports: if dist is missing or lacks the export, the row says "not built".
//
// What the adapter expects from dist/index.js:
//   readToolCalls(options?)   an RxJS operator  Observable<Uint8Array> -> Observable<ToolCallResult>
//                             where ToolCallResult = { success: true, data: { id, name, index, choice,
//                             arguments, rawArguments } } | { success: false, error }.
//                             OpenAI Chat is the default wire; other wires are selected with
//                             `{ provider: 'anthropic' | 'openai-responses' }` (see `operatorFor`).
//   readStreamEvents() + partialToolCalls() (optional): a partial value per fragment per call; the
//                             last value of each call carries its `result`. Skipped when not exported.
// If the real API differs, `operatorFor` / `collectPartial` below are the only places to change.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIST = new URL('../../dist/index.js', import.meta.url);

/**
 * The one place that maps a scenario to the library's operators. The wire format is left to
 * auto-detection (the default every user gets), whatever the scenario's format.
 */
function operatorFor(factory) {
  return factory();
}

let libPromise;
/** @returns {Promise<{ mod?: any, reason?: string }>} */
function loadDist() {
  libPromise ??= (async () => {
    if (!existsSync(fileURLToPath(DIST))) return { reason: 'not built: dist/index.js missing (run `npm run build`)' };
    try {
      return { mod: await import(DIST.href) };
    } catch (error) {
      return { reason: `not built: importing dist/index.js failed: ${error.message}` };
    }
  })();
  return libPromise;
}

function toCall(value) {
  const data = value && typeof value === 'object' && 'success' in value ? value.data : value;
  return { id: data.id, name: data.name, arguments: data.arguments, index: data.index, choice: data.choice };
}

function collect(observable, onValue) {
  return new Promise((resolve, reject) => {
    const subscription = observable.subscribe({
      next(value) {
        try {
          onValue(value);
        } catch (error) {
          reject(error);
          subscription?.unsubscribe();
        }
      },
      error: reject,
      complete: resolve,
    });
  });
}

function makeImpl({ key, label, exportName, run }) {
  let mod;
  let from;
  return {
    key,
    label,
    async load() {
      const loaded = await loadDist();
      if (!loaded.mod) return loaded.reason;
      if (typeof loaded.mod[exportName] !== 'function') return `not built: dist/index.js has no \`${exportName}\` export`;
      mod = loaded.mod;
      ({ from } = await import('rxjs'));
      return null;
    },
    supports() {
      return true;
    },
    async run(chunks, format) {
      return run(mod, from(chunks), format);
    },
  };
}

export const readToolCallsImpl = makeImpl({
  key: 'library',
  label: 'rxjs-tool-calls readToolCalls',
  exportName: 'readToolCalls',
  async run(mod, source) {
    const calls = [];
    await collect(source.pipe(operatorFor(mod.readToolCalls)), (result) => {
      if (!result.success) throw result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
      calls.push(toCall(result));
    });
    return calls;
  },
});

/** bytes -> readStreamEvents() -> partialToolCalls(): a partial value after every fragment; the last value of each call carries its result. */
function partialImpl(key, label, snapshots) {
  return makeImpl({
    key,
    label,
    exportName: 'partialToolCalls',
    async run(mod, source) {
      const last = new Map();
      let values = 0;
      await collect(source.pipe(mod.readStreamEvents(), mod.partialToolCalls({ snapshots })), (partial) => {
        values++;
        if (partial.result === undefined) return;
        if (!partial.result.success) throw partial.result.error;
        last.set(partial.key, toCall(partial.result));
      });
      if (values <= last.size) throw new Error('partialToolCalls emitted no partial values');
      return [...last.values()];
    },
  });
}

export const partialToolCallsImpl = partialImpl('library-partial', 'readToolCalls + partial (immutable snapshots)', 'immutable');
export const partialLiveImpl = partialImpl('library-partial-live', "readToolCalls + partial (snapshots: 'live')", 'live');

export default readToolCallsImpl;
