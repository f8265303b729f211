/**
 * The standard cases of a function that checks its options when it is made: a misspelt key is an
 * `invalid-option` error naming the function, the key and the closest key it takes; each key it
 * takes is taken (with a value it can use).
 */
import { ToolStreamError } from 'rxjs-tool-calls';

/** The `invalid-option` error `make` throws (anything else, or nothing, fails the test). */
export function invalidOption(make: () => unknown): ToolStreamError<'invalid-option'> {
  try {
    make();
  } catch (error) {
    if (error instanceof ToolStreamError && error.code === 'invalid-option') return error as ToolStreamError<'invalid-option'>;
    throw error;
  }
  throw new Error('nothing was thrown');
}

/**
 * One function: its name, a call of it with the options given (the other arguments fixed), a key it
 * takes and a value it can use for that key; `path`, where the options are among its arguments
 * (default `'options'`); `typo`, the key misspelt (default: its last character dropped).
 */
export type OptionsCase = readonly [name: string, make: (options: object) => unknown, key: string, value: unknown, more?: { readonly path?: string; readonly typo?: string }];

/** The standard cases, for each function of `cases`. */
export function describeOptionChecks(cases: ReadonlyArray<OptionsCase>): void {
  describe.each(cases.map((c) => [c[0], c] as const))('%s()', (name, [, make, key, value, more]) => {
    const path = more?.path ?? 'options';
    it(`refuses a misspelt key when it is made, naming ${path}.<key>, the keys it takes and the closest one`, () => {
      const typo = more?.typo ?? key.slice(0, -1);
      const error = invalidOption(() => make({ [typo]: value }));
      expect({ function: error.function, option: error.option, value: error.value }).toEqual({ function: name, option: `${path}.${typo}`, value });
      expect(error.expected).toContain(`did you mean '${key}'?`);
      expect(error.message).toContain(`${path}.${typo}`);
    });

    it(`takes ${key}, and undefined for it`, () => {
      expect(() => make({ [key]: value })).not.toThrow();
      expect(() => make({ [key]: undefined })).not.toThrow();
    });
  });
}
