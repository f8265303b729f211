import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { OpenAIResponsesEncoder, type OpenAIResponsesEncoderOptions } from '../providers/openaiResponses/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeOpenAIResponses}. */
export type EncodeOpenAIResponsesOptions = OpenAIResponsesEncoderOptions & EncodeOptions;

export function encodeOpenAIResponses(options: EncodeOpenAIResponsesOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new OpenAIResponsesEncoder(options), options);
}
