/**
 * What scripts/check-examples.mjs compiles: the ```ts blocks of `@example` sections in doc
 * comments (scripts/lib/exampleBlocks.mjs), their code without the comment's `* ` prefix, and the
 * source line each starts on, which its error reports name.
 */
import type * as ExampleBlocksNs from '../../scripts/lib/exampleBlocks.mjs';

let exampleBlocks: (typeof ExampleBlocksNs)['exampleBlocks'];

beforeAll(async () => {
  ({ exampleBlocks } = await import('../../scripts/lib/exampleBlocks.mjs'));
});

const source = [
  '/**', // 1
  ' * A summary.', // 2
  ' *', // 3
  ' * ```ts', // 4
  ' * notAnExample();', // 5: outside @example
  ' * ```', // 6
  ' *', // 7
  ' * @example', // 8
  ' * ```ts', // 9
  " * import { of } from 'rxjs';", // 10
  ' *', // 11
  ' * @Component({ selector: "x" })', // 12: a decorator inside the fence, not a tag
  ' *   class X {}', // 13
  ' * ```', // 14
  ' *', // 15
  ' * ```text', // 16
  ' * not typescript', // 17
  ' * ```', // 18
  ' *', // 19
  ' * @param a The first.', // 20
  ' * ```ts', // 21
  ' * afterTheExample();', // 22: after another tag
  ' * ```', // 23
  ' */', // 24
  "export const s = '/** @example\\n```ts\\ninAString();\\n```\\n*/';", // 25: a string, not a comment
  '/** @example', // 26
  ' * ```typescript', // 27
  ' * second();', // 28
  ' * ```', // 29
  ' */', // 30
  'export function f(a: number): number {', // 31
  '  return a;', // 32
  '}', // 33
].join('\n');

describe('exampleBlocks', () => {
  it('takes the ts blocks of @example sections only, with the line of their first code line', () => {
    expect(exampleBlocks(source)).toEqual([
      { code: "import { of } from 'rxjs';\n\n@Component({ selector: \"x\" })\n  class X {}", start: 10 },
      { code: 'second();', start: 28 },
    ]);
  });

  it('finds none in a source without doc comments', () => {
    expect(exampleBlocks('// @example\n// ```ts\n// x();\n// ```\nexport const y = 1;\n')).toEqual([]);
  });
});
