/**
 * Gemini contents for a tool loop.
 *
 * @module
 */
import { viewsOf, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type CallView } from '../messages';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

/** One part of a Gemini `model` content: text, or one function call. */
export type GeminiModelPart =
  | {
      /** The step's visible text. */
      readonly text: string;
    }
  | {
      /** One call the model made. */
      readonly functionCall: {
        /** The tool name. */
        readonly name: string;
        /** The parsed arguments; `{}` when they were not a JSON object. */
        readonly args: Readonly<Record<string, unknown>>;
        /** The wire's call id; absent when Gemini sent none (the library's generated ids are not sent). */
        readonly id?: string;
      };
      /** The part's thought signature, sent back verbatim; absent when the stream had none. */
      readonly thoughtSignature?: string;
    };
/** One `functionResponse` part of a Gemini `user` content: one call's result. */
export type GeminiResponsePart = {
  /** The result of one call. */
  readonly functionResponse: {
    /** The tool name of the call this answers. */
    readonly name: string;
    /** `{ output }` with the tool's raw output (`null` when it returned nothing) on success; `{ error }` with the message on failure. */
    readonly response: Readonly<Record<string, unknown>>;
    /** The call's wire id; absent when Gemini sent none. */
    readonly id?: string;
  };
};
/** A Gemini `model` content: the text, then one `functionCall` part per call. */
export type GeminiModelContent = {
  /** Always `'model'`. */
  readonly role: 'model';
  /** The parts, in that order. */
  readonly parts: Array<GeminiModelPart>;
};
/** The Gemini `user` content that carries the function responses. */
export type GeminiToolContent = {
  /** Always `'user'`. */
  readonly role: 'user';
  /** One `functionResponse` part per call, in call order. */
  readonly parts: Array<GeminiResponsePart>;
};

/**
 * Gemini: the `model` content (text, one `functionCall` part per call, keeping its
 * `thoughtSignature`), then a `user` content of `functionResponse` parts: `{ output }` for a
 * success (the raw value), `{ error }` (the message) for a failure. Ids are sent only when the
 * wire had them.
 */
export function geminiToolContents(step: ToolStep, options: ToolMessagesOptions = {}): [GeminiModelContent, GeminiToolContent] {
  const views = viewsOf(step, options);
  const id = (v: CallView): { id?: string } => (v.idGenerated ? {} : { id: v.id });
  const text: GeminiModelPart[] = step.text ? [{ text: step.text }] : [];
  const calls = views.map((v): GeminiModelPart => ({ functionCall: { name: v.name, args: v.input, ...id(v) }, ...(v.thoughtSignature === undefined ? {} : { thoughtSignature: v.thoughtSignature }) }));
  const responses = views.map((v): GeminiResponsePart => ({ functionResponse: { name: v.name, response: v.failed ? { error: v.text } : { output: v.output ?? null }, ...id(v) } }));
  return [
    { role: 'model', parts: [...text, ...calls] },
    { role: 'user', parts: responses },
  ];
}

/** The gemini message builders. */
export const geminiMessages: MessageBuilder<GeminiModelContent | GeminiToolContent> = {
  toolMessages: geminiToolContents,
  assistantText: (text) => ({ role: 'model', parts: [{ text }] }),
};
