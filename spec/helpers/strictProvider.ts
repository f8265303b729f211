/**
 * The shape of a scripted provider that checks reasoning (see strictProviders.ts), and the steps and
 * expected turns built from one.
 */
import type { LoopMessage } from 'rxjs-tool-calls/tools';
import { type ScriptedStep } from './scriptedModel';
import { answerFor, expectedFor, turnFor, type TurnBlock, type TurnFormat } from './reasoningTurns';

type Json = Record<string, unknown>;

/** A scripted provider: its turns, its request body, and its check of a request as the API does it. */
export interface ScriptedProvider {
  readonly format: TurnFormat;
  /** The conversation's first message. */
  readonly question: LoopMessage;
  /** The two turns that call tools (the model's answer follows them). */
  readonly turns: readonly [TurnBlock[], TurnBlock[]];
  /** The request body for `messages`, in the provider's shape. */
  body(messages: ReadonlyArray<LoopMessage>): Json;
  /** The provider's check of a request body: throws a `ScriptedRejection` as the API answers. */
  check(body: Json): void;
}

/** A provider that needs the reasoning back. */
export interface StrictProvider extends ScriptedProvider {
  /** The body without the reasoning the provider needs (what a client that drops it sends). */
  strip(body: Json): Json;
  /** The body with the reasoning modified (one character of a signature / encrypted content, or its text). */
  tamper(body: Json): Json;
  /** The error message for a stripped request. */
  readonly strippedError: RegExp;
  /** The error message for a modified one. */
  readonly tamperedError: RegExp;
}

/** The scripted steps: turn 0, turn 1 (checked), the answer (checked). */
export function strictSteps(provider: ScriptedProvider): ScriptedStep[] {
  const check = (body: unknown): void => provider.check(body as Json);
  return [
    { events: turnFor(provider.format, provider.turns[0]) },
    { check, events: turnFor(provider.format, provider.turns[1]) },
    { check, events: answerFor(provider.format, 'Sunny, noon in Tokyo, and found.') },
  ];
}

/** The assistant turn the loop must send back for turn `n` (as `expectedFor`). */
export function expectedTurn(provider: ScriptedProvider, n: 0 | 1): unknown {
  return expectedFor(provider.format, provider.turns[n]);
}
