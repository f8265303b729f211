/**
 * Gemini contents for a tool loop.
 *
 * @module
 */
import { turnWithProviderTools, viewsOf, type ProviderToolPiece, type CallView, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

// Checked against the official SDK types in spec/types/messages.test-d.ts; arrays are mutable so
// the messages can go straight into the SDKs' request types.

/** One part of a Gemini `model` content: text, a thought, or one function call. */
export type GeminiModelPart =
  | {
      /** Visible text, or (with `thought`) the model's thought text. */
      readonly text: string;
      /** `true` for a thought part. */
      readonly thought?: boolean;
      /** The part's thought signature, sent back verbatim on the part it came with; absent when it had none. */
      readonly thoughtSignature?: string;
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
/** A Gemini `model` content: its thought, text and `functionCall` parts, in the order they were streamed. */
export type GeminiModelContent = {
  /** Always `'model'`. */
  readonly role: 'model';
  /** The parts, in stream order. */
  readonly parts: Array<GeminiModelPart>;
};
/** The Gemini `user` content that carries the function responses. */
export type GeminiToolContent = {
  /** Always `'user'`. */
  readonly role: 'user';
  /** One `functionResponse` part per call, in call order. */
  readonly parts: Array<GeminiResponsePart>;
};

const idOf = (v: CallView): { id?: string } => (v.idGenerated ? {} : { id: v.id });
const signed = (signature: string | undefined): { thoughtSignature?: string } => (signature === undefined ? {} : { thoughtSignature: signature });

/** One segment of the turn as parts (`[]` for a reasoning part with neither text nor signature, e.g. another format's redacted block). */
function partsOf(segment: TurnSegment | ProviderToolPiece): GeminiModelPart[] {
  switch (segment.type) {
    case 'provider-tool':
      // An executableCode / codeExecutionResult part, verbatim.
      return [segment.raw as unknown as GeminiModelPart];
    case 'text':
      return [{ text: segment.text, ...signed(segment.signature) }];
    case 'reasoning': {
      const { text, signature } = segment.part;
      return text === '' && signature === undefined ? [] : [{ text, thought: true, ...signed(signature) }];
    }
    case 'call': {
      const v = segment.view;
      return [{ functionCall: { name: v.name, args: v.input, ...idOf(v) }, ...signed(v.thoughtSignature) }];
    }
  }
}

/**
 * Gemini: the `model` content with the turn's parts in stream order (thought parts, text parts,
 * one `functionCall` part per call), each keeping the `thoughtSignature` it came with, then a `user`
 * content of `functionResponse` parts: `{ output }` for a success (the raw value), `{ error }` (the
 * message) for a failure. Ids are sent only when the wire had them.
 */
export function geminiToolContents(step: ToolStep, options: ToolMessagesOptions = {}): [GeminiModelContent, GeminiToolContent] {
  const views = viewsOf(step, options);
  const responses = views.map((v): GeminiResponsePart => ({ functionResponse: { name: v.name, response: v.failed ? { error: v.text } : { output: v.output ?? null }, ...idOf(v) } }));
  return [
    { role: 'model', parts: turnWithProviderTools(step, views, options, 'gemini').flatMap(partsOf) },
    { role: 'user', parts: responses },
  ];
}

/** The gemini message builders. */
export const geminiMessages: MessageBuilder<GeminiModelContent | GeminiToolContent> = {
  toolMessages: geminiToolContents,
  assistantText: (text) => ({ role: 'model', parts: [{ text }] }),
};
