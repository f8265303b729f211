/**
 * Gemini contents for a tool loop.
 *
 * @module
 */
import type { Content, FunctionResponsePart, Part } from '../../providers/gemini/wire';
import { turnWithProviderTools, viewsOf, type ProviderToolPiece, type CallView, type MessageBuilder, type ToolMessagesOptions, type ToolStep, type TurnSegment } from './shared';

const idOf = (v: CallView): { id?: string } => (v.idGenerated ? {} : { id: v.id });
const signed = (signature: string | undefined): { thoughtSignature?: string } => (signature === undefined ? {} : { thoughtSignature: signature });

/** One segment of the turn as parts (`[]` for a reasoning part with neither text nor signature, e.g. another format's redacted block). */
function partsOf(segment: TurnSegment | ProviderToolPiece): Part[] {
  switch (segment.type) {
    case 'provider-tool':
      // An executableCode / codeExecutionResult part, verbatim.
      return [segment.raw as unknown as Part];
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
export function geminiToolContents(step: ToolStep, options: ToolMessagesOptions = {}): [Content, Content] {
  const views = viewsOf(step, options);
  const responses = views.map((v): FunctionResponsePart => ({ functionResponse: { name: v.name, response: v.failed ? { error: v.text } : { output: v.output ?? null }, ...idOf(v) } }));
  return [
    { role: 'model', parts: turnWithProviderTools(step, views, options, 'gemini').flatMap(partsOf) },
    { role: 'user', parts: responses },
  ];
}

/** The gemini message builders. */
export const geminiMessages: MessageBuilder<Content> = {
  toolMessages: geminiToolContents,
  assistantText: (text) => ({ role: 'model', parts: [{ text }] }),
};
