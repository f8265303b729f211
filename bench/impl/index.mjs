// The implementations, in report order.
import floor from './floor.mjs';
import eventsourceParser from './eventsource-parser.mjs';
import sdk from './openai-sdk.mjs';
import aiSdk from './ai-sdk.mjs';
import { readToolCallsImpl, partialToolCallsImpl, partialLiveImpl } from './library.mjs';

export const IMPLEMENTATIONS = [floor, eventsourceParser, sdk, aiSdk, readToolCallsImpl, partialToolCallsImpl, partialLiveImpl];
export const byKey = (key) => IMPLEMENTATIONS.find((impl) => impl.key === key);
