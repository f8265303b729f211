/**
 * The OpenAI Realtime API's wire types: the client events that answer a function call
 * (`conversation.item.create` with a `function_call_output` item, then `response.create`, what
 * `toolMessages('openai-realtime', …)` writes), the session's tools (what `toolSpecs(…,
 * 'openai-realtime')` writes) and the `session.update` that declares them. Checked against the
 * `openai` SDK's Realtime types in `spec/types/messages.test-d.ts`; arrays are mutable so the values
 * go straight into the SDK's event types.
 *
 * @module
 */

/** A function tool of a Realtime session: `{ type: 'function', name, description, parameters }` (no `strict`). */
export interface FunctionTool {
  /** Always `'function'`. */
  type: 'function';
  /** The tool name. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** The JSON Schema of the arguments. */
  parameters: { [keyword: string]: unknown };
}

/** A message conversation item: a user's or the system's text (`input_text`), or the assistant's (`output_text`). */
export type MessageItem =
  | {
      /** Always `'message'`. */
      type: 'message';
      /** A user's or the system's message. */
      role: 'user' | 'system';
      /** Its text parts. */
      content: Array<{
        /** Always `'input_text'`. */
        type: 'input_text';
        /** The text. */
        text: string;
      }>;
    }
  | {
      /** Always `'message'`. */
      type: 'message';
      /** The assistant's message. */
      role: 'assistant';
      /** Its text parts. */
      content: Array<{
        /** Always `'output_text'`. */
        type: 'output_text';
        /** The text. */
        text: string;
      }>;
    };

/** A `function_call_output` conversation item: one call's result, matched to its call by `call_id`. */
export interface FunctionCallOutputItem {
  /** Always `'function_call_output'`. */
  type: 'function_call_output';
  /** The `call_id` of the call this answers. */
  call_id: string;
  /** The result, as text (JSON for a structured result). */
  output: string;
}

/** A conversation item a client creates. */
export type ConversationItem = MessageItem | FunctionCallOutputItem;

/** `conversation.item.create`: add an item to the conversation (a user message, a call's result). */
export interface ConversationItemCreateEvent {
  /** Always `'conversation.item.create'`. */
  type: 'conversation.item.create';
  /** The item. */
  item: ConversationItem;
  /** The client's own id of the event, echoed by an `error` about it. */
  event_id?: string;
  /** The item to insert it after (default: the end of the conversation). */
  previous_item_id?: string;
}

/** `response.create`: ask the model for a response (after a call's results, so that it reads them). */
export interface ResponseCreateEvent {
  /** Always `'response.create'`. */
  type: 'response.create';
  /** The client's own id of the event. */
  event_id?: string;
}

/** `session.update`: the session's settings, its tools among them. */
export interface SessionUpdateEvent {
  /** Always `'session.update'`. */
  type: 'session.update';
  /** The client's own id of the event. */
  event_id?: string;
  /** The settings to change. */
  session: {
    /** Always `'realtime'` (a conversation, not a transcription session). */
    type: 'realtime';
    /** The session's tools (`toolSpecs(tools, 'openai-realtime')`). */
    tools?: FunctionTool[];
    /** `'auto'`, `'none'`, `'required'` or one function. */
    tool_choice?:
      | 'auto'
      | 'none'
      | 'required'
      | {
          /** Always `'function'`. */
          type: 'function';
          /** The function the model must call. */
          name: string;
        };
    /** The model's instructions. */
    instructions?: string;
    /** What the model answers with: `['text']` or `['audio']`. */
    output_modalities?: Array<'text' | 'audio'>;
  };
}

/** A client event the tools wing writes. */
export type ClientEvent = ConversationItemCreateEvent | ResponseCreateEvent | SessionUpdateEvent;
