/**
 * Type-level tests, checked by `tsc --noEmit -p .` (never run): `partialObject()` types its values
 * as a deep partial of the schema's output, `data` as the output, elements by `elementSchema`.
 */
import type { Observable } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import type { DeepPartial, JsonPath, StreamEvent } from 'rxjs-tool-calls';
import { partialObject, type PartialObjectError, type PartialObjectUpdate } from '../../src/operators/partialObject';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const events$: Observable<StreamEvent>;

const Recipe = z.object({ title: z.string(), servings: z.number().default(2), steps: z.array(z.object({ text: z.string(), minutes: z.number() })) });
type Recipe = z.output<typeof Recipe>;
const Step = v.object({ text: v.string(), minutes: v.number() });

const typed$ = events$.pipe(partialObject({ schema: Recipe, elements: ['steps'], elementSchema: Step }));
assertType<Equal<typeof typed$, Observable<PartialObjectUpdate<Recipe, { text: string; minutes: number }>>>>();

typed$.subscribe((u) => {
  // every update carries the latest value: a deep partial of the output
  assertType<Equal<typeof u.value, DeepPartial<Recipe> | undefined>>();
  assertType<Equal<typeof u.openPath, JsonPath | undefined>>();
  const title: string | undefined = u.value?.title;
  const minutes: number | undefined = u.value?.steps?.[0]?.minutes;
  void title;
  void minutes;
  // @ts-expect-error a partial value's fields may be absent
  const required: string = u.value?.title;
  void required;
  // @ts-expect-error partial values are read-only snapshots
  if (u.value) u.value.title = 'x';
  if (u.type === 'element') {
    const index: number = u.index;
    void index;
    if (u.result.success) assertType<Equal<typeof u.result.data, { text: string; minutes: number }>>();
    else assertType<Equal<typeof u.result.error.code, 'invalid-arguments'>>();
  }
  if (u.type === 'result') {
    if (u.result.success) {
      assertType<Equal<typeof u.result.data, Recipe>>();
      const servings: number = u.result.data.servings; // the output type: the default applied
      void servings;
    } else {
      assertType<Equal<typeof u.result.error, PartialObjectError>>();
      const code: 'malformed-arguments' | 'invalid-arguments' | 'incomplete' | 'arguments-too-large' = u.result.error.code;
      void code;
      if (u.result.error.code === 'malformed-arguments') {
        const position: number | undefined = u.result.error.position;
        const raw: string = u.result.error.toolCall.rawArguments;
        void position;
        void raw;
      }
    }
  }
  // @ts-expect-error `result` exists only on element and result updates
  void u.result;
});

// Without a schema: unknown values and data.
events$.pipe(partialObject()).subscribe((u) => {
  assertType<Equal<typeof u.value, unknown>>();
  if (u.type === 'result' && u.result.success) assertType<Equal<typeof u.result.data, unknown>>();
});

// fromTool and valibot as the document's schema.
events$.pipe(partialObject({ fromTool: 'answer', schema: v.object({ city: v.string() }) })).subscribe((u) => {
  const city: string | undefined = u.value?.city;
  const id: string | undefined = u.toolCall?.id;
  void city;
  void id;
});

// @ts-expect-error the schema must be a Standard Schema
partialObject({ schema: { parse: (x: unknown) => x } });
// @ts-expect-error elements is `true` or a path
partialObject({ elements: 'steps' });
