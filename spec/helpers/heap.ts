/**
 * The heap after a full garbage collection, for specs that check that repeated work leaves nothing
 * behind. `gc` is not exposed under jest, so the flag is set here and the function taken from a
 * fresh context (a V8 feature: a context created after the flag has `gc`).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | undefined;

/** Bytes of heap in use after two full collections. */
export function heapAfterGc(): number {
  if (collect === undefined) {
    v8.setFlagsFromString('--expose-gc');
    collect = vm.runInNewContext('gc') as () => void;
  }
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}
