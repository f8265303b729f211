/**
 * The list of wire formats: the one place that names them all. Auto-detection tries them in this
 * order; `provider` names, the CLI's `--provider` values and the tool wing's formats derive from it.
 * Adding a format: its folder, its name in the vocabulary (`ProviderName`), and one line here.
 *
 * @module
 */
import type { ProviderName } from '../events';
import { agUi } from './agUi';
import { aiSdkUi } from './aiSdkUi';
import { anthropicMessages } from './anthropic';
import { bedrockConverse } from './bedrockConverse';
import { bedrockInvokeModel } from './bedrockInvokeModel';
import { cohereChat } from './cohere';
import type { WireFormat } from './format';
import { gemini } from './gemini';
import { geminiInteractions } from './geminiInteractions';
import { ollamaChat } from './ollama';
import { openaiChat } from './openaiChat';
import { openaiRealtime } from './openaiRealtime';
import { openaiResponses } from './openaiResponses';

/**
 * Every wire format read from SSE (or from records framed already, a WebSocket's messages), in
 * detection order: event-named formats first, then payload shapes, then the UI streams' chunk
 * types. Realtime comes before Responses: they share the `response.*` names, and only Realtime's
 * events carry an `event_id`.
 */
export const WIRE_FORMATS = [openaiRealtime, openaiResponses, anthropicMessages, cohereChat, geminiInteractions, openaiChat, gemini, aiSdkUi, agUi] as const satisfies ReadonlyArray<
  WireFormat<ProviderName>
>;

/** The formats read from the other framings: Bedrock's event stream (Converse, InvokeModel) and Ollama's NDJSON. */
export const FRAMED_FORMATS = [bedrockConverse, bedrockInvokeModel, ollamaChat] as const satisfies ReadonlyArray<WireFormat<ProviderName>>;

/** The name of a wire format of the lists: every {@link ProviderName} (checked below). */
export type WireFormatName = (typeof WIRE_FORMATS)[number]['format'] | (typeof FRAMED_FORMATS)[number]['format'];

/** Fails to compile while a name of the vocabulary has no format in the lists. */
export type EveryNameListed<Missing extends never = Exclude<ProviderName, WireFormatName>> = Missing;

/** The SSE wire format named `name`, or `undefined`. */
export function formatNamed(name: string): WireFormat | undefined {
  return WIRE_FORMATS.find((format) => format.format === name);
}

/** The wire format named `name` among every format, the framed ones included, or `undefined`. */
export function anyFormatNamed(name: string): WireFormat | undefined {
  return formatNamed(name) ?? FRAMED_FORMATS.find((format) => format.format === name);
}
