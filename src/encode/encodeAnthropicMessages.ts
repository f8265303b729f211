import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { AnthropicMessagesEncoder, type AnthropicEncoderOptions } from '../providers/anthropic/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeAnthropicMessages}. */
export type EncodeAnthropicMessagesOptions = AnthropicEncoderOptions & EncodeOptions;

export function encodeAnthropicMessages(options: EncodeAnthropicMessagesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new AnthropicMessagesEncoder(options), options);
}
