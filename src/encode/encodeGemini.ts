import type { OperatorFunction } from 'rxjs';
import type { StreamEvent } from '../events';
import { GeminiEncoder, type GeminiEncoderOptions } from '../providers/gemini/encoder';
import { encodeWith, type EncodeOptions } from './encodeWith';

/** Options of {@link encodeGemini}. */
export type EncodeGeminiOptions = GeminiEncoderOptions & EncodeOptions;

export function encodeGemini(options: EncodeGeminiOptions = {}): OperatorFunction<StreamEvent, string> {
  return encodeWith(() => new GeminiEncoder(options), options);
}
