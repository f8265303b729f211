/**
 * The list of wire formats: the one place that names them all. Auto-detection tries them in this
 * order; `provider` names, the CLI's `--provider` values and `toolLoop`'s formats derive from it.
 * Adding a format: its folder, and one line here.
 *
 * @module
 */
import { anthropicMessages } from './anthropic';
import { cohereChat } from './cohere';
import type { ProviderName } from '../events';
import type { WireFormat } from './format';
import { gemini } from './gemini';
import { openaiChat } from './openaiChat';
import { openaiResponses } from './openaiResponses';

/** Every wire format, in detection order (event-named formats first, then payload shapes). */
export const WIRE_FORMATS = [openaiResponses, anthropicMessages, cohereChat, openaiChat, gemini] as const satisfies ReadonlyArray<WireFormat<ProviderName>>;

/** The name of a wire format of the list: every {@link ProviderName} (checked below). */
export type WireFormatName = (typeof WIRE_FORMATS)[number]['format'];

/** Fails to compile while a name of the vocabulary has no format in the list. */
export type EveryNameListed<Missing extends never = Exclude<ProviderName, WireFormatName>> = Missing;

/** The wire format named `name`, or `undefined`. */
export function formatNamed(name: string): WireFormat | undefined {
  return WIRE_FORMATS.find((format) => format.format === name);
}
