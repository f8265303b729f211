/**
 * The list of wire formats: the one place that names them all. Auto-detection tries them in this
 * order; `provider` names, the CLI's `--provider` values and `toolLoop`'s formats derive from it.
 * Adding a format: its folder, and one line here.
 *
 * The formats of the non-SSE framings (AWS event stream, NDJSON) are a list of their own,
 * {@link FRAMED_FORMATS}: their names are provider names, and a tool loop speaks them, but nothing
 * that reads SSE reaches them (auto-detection and `formatNamed()` look at {@link WIRE_FORMATS}
 * only), so a bundle that reads SSE does not carry them.
 *
 * @module
 */
import { anthropicMessages } from './anthropic';
import { bedrockConverse } from './bedrockConverse';
import { bedrockInvokeModel } from './bedrockInvokeModel';
import { cohereChat } from './cohere';
import type { WireFormat } from './format';
import { gemini } from './gemini';
import { ollamaChat } from './ollama';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';

/** Every SSE wire format, in detection order (event-named formats first, then payload shapes). */
export const WIRE_FORMATS = [openaiResponses, anthropicMessages, cohereChat, openaiChat, gemini] as const;

/** The formats read from the other framings: Bedrock's event stream (Converse, InvokeModel) and Ollama's NDJSON. */
export const FRAMED_FORMATS = [bedrockConverse, bedrockInvokeModel, ollamaChat] as const;

/**
 * The name of a wire format (`'openai-chat'`, `'openai-responses'`, `'anthropic'`, `'gemini'`,
 * `'cohere'`, `'bedrock-converse'`, `'bedrock-invoke-model'`, `'ollama'`).
 */
export type WireFormatName = (typeof WIRE_FORMATS)[number]['format'] | (typeof FRAMED_FORMATS)[number]['format'];

/** The SSE wire format named `name`, or `undefined`. */
export function formatNamed(name: string): WireFormat | undefined {
  return WIRE_FORMATS.find((format) => format.format === name);
}

/** The wire format named `name` among every format, the framed ones included, or `undefined`. */
export function anyFormatNamed(name: string): WireFormat | undefined {
  return formatNamed(name) ?? FRAMED_FORMATS.find((format) => format.format === name);
}
