import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { OpenAIChatEncoder, type OpenAIChatEncoderOptions } from '../providers/openaiChat/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeOpenAIChat}. */
export type EncodeOpenAIChatOptions = OpenAIChatEncoderOptions & EncodeOptions;

export function encodeOpenAIChat(options: EncodeOpenAIChatOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new OpenAIChatEncoder(options), options);
}
