/**
 * The UI protocols' wire types fit the protocols' own packages (checked by tsc, never run): every
 * `UIMessage` and `UIMessageChunk` of the `ai` package is an `AiSdkUiWire` value, and every
 * `RunAgentInput` and event of `@ag-ui/core` an `AgUiWire` one, so what a `useChat` or AG-UI
 * client sends goes into the translators as it is.
 */
import type { Event as AgUiEvent, RunAgentInput } from '@ag-ui/core';
import type { UIMessage, UIMessageChunk } from 'ai';
import { fromAgUiRequest, fromAiSdkUiRequest, type AgUiWire, type AiSdkUiWire } from 'rxjs-tool-calls/gateway';

declare const messages: UIMessage[];
declare const chunk: UIMessageChunk;
declare const input: RunAgentInput;
declare const event: AgUiEvent;

const uiMessages: AiSdkUiWire.UIMessage[] = messages;
const uiChunk: AiSdkUiWire.Chunk = chunk;
const runInput: AgUiWire.RunAgentInput = input;
const agUiEvent: AgUiWire.Event = event;
void uiMessages;
void uiChunk;
void runInput;
void agUiEvent;

// What the clients post is what the translators take.
fromAiSdkUiRequest(messages, { model: 'm' });
fromAiSdkUiRequest({ id: 'chat', messages, trigger: 'submit-message', model: 'client-pick' }, { model: 'm' });
fromAgUiRequest(input, { model: 'm' });
