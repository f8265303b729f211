// This library, from its BUILT output only (`dist/index.js`, produced by `npm run build`).
// No TS loader, no src/ imports: if dist is missing or lacks the export, the row says "not built".
//
// What the adapter expects from dist/index.js:
//   readToolCalls(options?)   an RxJS operator  Observable<Uint8Array> -> Observable<ToolCallResult>
//                             where ToolCallResult = { success: true, data: { id, name, index, choice,
//                             arguments, rawArguments } } | { success: false, error }.
//                             OpenAI Chat is the default wire; other wires are selected with
//                             `{ provider: 'anthropic' | 'openai-responses' }` (see `operatorFor`).
//   partialToolCalls(options?) (optional) same input; emits snapshots of calls in progress. The last
//                             snapshot per (choice, index) must carry the complete parsed `arguments`
//                             (Result-wrapped or plain). The row is skipped when it is not exported.
// If the real API differs, `operatorFor` / `collectPartial` below are the only places to change.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIST = new URL('../../dist/index.js', import.meta.url);

/** The one place that maps a scenario's wire format to the library's operator call. */
function operatorFor(factory, format) {
  return format === 'openai-chat' ? factory() : factory({ provider: format });
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
  async run(mod, source, format) {
    const calls = [];
    await collect(source.pipe(operatorFor(mod.readToolCalls, format)), (result) => {
      if (!result.success) throw result.error instanceof Error ? result.error : new Error(JSON.stringify(result.error));
      calls.push(toCall(result));
    });
    return calls;
  },
});

export const partialToolCallsImpl = makeImpl({
  key: 'library-partial',
  label: 'readToolCalls + partial',
  exportName: 'partialToolCalls',
  async run(mod, source, format) {
    const last = new Map();
    await collect(source.pipe(operatorFor(mod.partialToolCalls, format)), (value) => {
      if (value && value.success === false) throw value.error instanceof Error ? value.error : new Error(JSON.stringify(value.error));
      const call = toCall(value);
      last.set(`${call.choice ?? 0}/${call.index ?? call.id}`, call);
    });
    return [...last.values()];
  },
});

export default readToolCallsImpl;
