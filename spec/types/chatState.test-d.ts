/**
 * Type-level tests of chatState(), checked by `tsc --noEmit -p .` (never run): untyped states,
 * calls as a union by tool name with deep-partial arguments when `tools` are given, and results
 * typed by name.
 */
import type { Observable } from 'rxjs';
import * as v from 'valibot';
import { z } from 'zod';
import { chatState, type ChatState, type ChatStatus, type TypedChatStateCall } from '../../src/operators/chatState';
import type { StreamEvent } from '../../src/events';
import type { DeepPartial } from '../../src/parse/deepPartial';
import type { JsonPath } from '../../src/parse/partialJson';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const events$: Observable<StreamEvent>;

// Untyped: arguments are unknown, the state has every field.
const _plain$ = events$.pipe(chatState());
assertType<Equal<typeof _plain$, Observable<ChatState>>>();
declare const plain: ChatState;
assertType<Equal<typeof plain.status, ChatStatus>>();
assertType<Equal<ChatStatus, 'streaming' | 'done' | 'error'>>();
assertType<Equal<(typeof plain.calls)[number]['partialArguments'], unknown>>();
assertType<Equal<(typeof plain.calls)[number]['openPath'], JsonPath | undefined>>();
const text: string = plain.text;
const reasoning: string = plain.reasoning;
const input: number | undefined = plain.usage?.inputTokens;
void [text, reasoning, input];
// @ts-expect-error the state is immutable
plain.text = '';
// @ts-expect-error calls cannot be pushed to
plain.calls.push(plain.calls[0]!);

// The initial state fits every state type.
const start: ChatState = { status: 'streaming', text: '', reasoning: '', calls: [], finishReason: undefined, usage: undefined };
void start;

// DeepPartial: keys optional all the way down, literals widened, arrays of partial elements.
type Args = { city: string; units: 'celsius' | 'fahrenheit'; days: { n: number }[]; exact: boolean };
assertType<Equal<DeepPartial<Args>, { readonly city?: string; readonly units?: string; readonly days?: ReadonlyArray<{ readonly n?: number }>; readonly exact?: boolean }>>();

// Typed: a union by tool name, deep-partial arguments of each schema's output.
const tools = {
  get_weather: z.object({ city: z.string(), days: z.number().default(1) }),
  get_time: v.object({ zone: v.string(), precise: v.optional(v.boolean()) }),
};
const _typed$ = events$.pipe(chatState({ tools, choice: 0, allowPartialLiterals: true }));
assertType<Equal<typeof _typed$, Observable<ChatState<TypedChatStateCall<typeof tools>>>>>();
declare const typed: ChatState<TypedChatStateCall<typeof tools>>;
for (const call of typed.calls) {
  assertType<Equal<typeof call.name, 'get_weather' | 'get_time'>>();
  if (call.name === 'get_weather') {
    const city: string | undefined = call.partialArguments.city;
    const days: number | undefined = call.partialArguments.days;
    void [city, days];
    // @ts-expect-error partial: the city may not have arrived yet
    const sure: string = call.partialArguments.city;
    // @ts-expect-error get_weather has no `zone`
    void call.partialArguments.zone;
    if (call.result?.success) {
      // the result is the complete, validated call of this tool
      const final: { city: string; days: number } = call.result.data.arguments;
      assertType<Equal<typeof call.result.data.name, 'get_weather'>>();
      void [final, sure];
    }
    if (call.result?.success === false) {
      const code: string = call.result.error.code;
      void code;
    }
  } else {
    const zone: string | undefined = call.partialArguments.zone;
    void zone;
    // @ts-expect-error get_time has no `city`
    void call.partialArguments.city;
  }
}

// A typed state is still a ChatState (views written for any state accept it).
const widened: ChatState = typed;
void widened;

// Options are checked.
// @ts-expect-error choice is a number
events$.pipe(chatState({ choice: '0' }));
// @ts-expect-error not an option
events$.pipe(chatState({ snapshots: 'live' }));
