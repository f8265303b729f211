/**
 * The type of a value that is still being received: what a partial JSON parse of a value of type
 * `T` can show.
 *
 * @module
 */

/**
 * What arguments of type `T` can look like while they stream: every property optional (a key
 * appears once its value has started), arrays possibly short, strings possibly cut (a string
 * literal type widens to `string`: `'cel'` is on its way to `'celsius'`), other primitives widened
 * to their base type. Nested objects and arrays are deep-partial too.
 *
 * @example
 * ```ts
 * import type { DeepPartial } from 'rxjs-tool-calls';
 *
 * type Args = { city: string; units: 'celsius' | 'fahrenheit'; days: number[] };
 * const shown: DeepPartial<Args> = { city: 'Zür', units: 'cel' };
 * ```
 */
export type DeepPartial<T> = T extends string
  ? string
  : T extends number
    ? number
    : T extends boolean
      ? boolean
      : T extends bigint | symbol | null | undefined
        ? T
        : T extends ReadonlyArray<infer E>
          ? ReadonlyArray<DeepPartial<E>>
          : T extends object
            ? { readonly [K in keyof T]?: DeepPartial<T[K]> }
            : T;
