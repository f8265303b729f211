/**
 * AG-UI's wire types (protocol 1.0): the events of a run (what `agUi()` reads and `encodeAgUi()`
 * writes; `@ag-ui/core`'s `BaseEvent` family) and the `RunAgentInput` a client posts (what
 * `fromAgUiRequest()` reads). Written from the protocol's schemas (`@ag-ui/core` 1.0 and the 1.0
 * specification); checked against the package's own types in `spec/types/uiProtocols.test-d.ts`.
 *
 * @module
 */

/** Extra information on an event or a message, open by key (the key `ag-ui` is the protocol's own). */
export type Metadata = { readonly [key: string]: unknown };

/** The fields every event may carry. */
export interface EventFields {
  /** When the event was made, in milliseconds since the epoch. */
  timestamp?: number;
  /** The provider's own event it was made from, passed through. */
  rawEvent?: unknown;
  /** Extra information (merged into the message or tool call the event builds). */
  metadata?: Metadata;
  /** The subagent invocation the event belongs to (absent: the agent itself). */
  subagentRunId?: string;
}

/** Token counts of one provider and model, in the protocol's accounting (the same as the vocabulary's `Usage`). */
export interface TokenUsage {
  /** The provider the counts are of. */
  provider?: string;
  /** The model the counts are of. */
  model?: string;
  /** Every input token (cache reads and writes included). */
  inputTokens?: number;
  /** Every generated token (reasoning included). */
  outputTokens?: number;
  /** `inputTokens + outputTokens`. */
  totalTokens?: number;
  /** The part of `outputTokens` spent on reasoning. */
  reasoningTokens?: number;
  /** The part of `inputTokens` read from a cache. */
  cachedInputTokens?: number;
  /** The part of `inputTokens` written to a cache. */
  cacheWriteInputTokens?: number;
}

/** Something a run needs from outside before it can continue (an approval, a value). */
export interface Interrupt {
  /** The interrupt's id: the resume entry answering it names it. */
  id: string;
  /** What is needed (`'tool_approval'` for a tool call awaiting approval). */
  reason: string;
  /** A prompt to show the user. */
  message?: string;
  /** The tool call the interrupt is about. */
  toolCallId?: string;
  /** The JSON Schema of the answer. */
  responseSchema?: { readonly [key: string]: unknown };
  /** When the interrupt stops being answerable (ISO 8601). */
  expiresAt?: string;
  /** Extra information. */
  metadata?: Metadata;
  /** The subagent that asked. */
  subagentRunId?: string;
}

/** How a finished run ended: completed (naming the calls left for the client to answer), paused for input, or cancelled. */
export type RunFinishedOutcome =
  | {
      /** The run completed. */
      type: 'success';
      /** The client-side tool calls the run left unanswered. */
      pendingToolCallIds?: string[];
    }
  | {
      /** The run paused for outside input. */
      type: 'interrupt';
      /** What it waits for (at least one). */
      interrupts: Interrupt[];
    }
  | {
      /** The run was stopped before it completed. */
      type: 'cancelled';
    };

/** A run starts. */
export interface RunStartedEvent extends EventFields {
  /** The discriminant. */
  type: 'RUN_STARTED';
  /** The conversation's id. */
  threadId: string;
  /** The run's id. */
  runId: string;
  /** The protocol version the producer speaks. */
  protocolVersion?: string;
  /** The run this one continues. */
  parentRunId?: string;
  /** The input the run was started with, echoed. */
  input?: RunAgentInput;
}

/** A run ends without failing. */
export interface RunFinishedEvent extends EventFields {
  /** The discriminant. */
  type: 'RUN_FINISHED';
  /** The conversation's id. */
  threadId: string;
  /** The run's id. */
  runId: string;
  /** The run's result, when it has one. */
  result?: unknown;
  /** How it ended (absent: completed). */
  outcome?: RunFinishedOutcome;
  /** Its token counts, one entry per provider and model. */
  usage?: TokenUsage[];
}

/** A run fails. */
export interface RunErrorEvent extends EventFields {
  /** The discriminant. */
  type: 'RUN_ERROR';
  /** What went wrong. */
  message: string;
  /** A machine-readable code. */
  code?: string;
  /** The token counts until then. */
  usage?: TokenUsage[];
}

/** A named step of a run starts. */
export interface StepStartedEvent extends EventFields {
  /** The discriminant. */
  type: 'STEP_STARTED';
  /** The step's name. */
  stepName: string;
}

/** A named step ends. */
export interface StepFinishedEvent extends EventFields {
  /** The discriminant. */
  type: 'STEP_FINISHED';
  /** The step's name. */
  stepName: string;
}

/** Who a streamed text message is from. */
export type TextMessageRole = 'developer' | 'system' | 'assistant' | 'user';

/** A text message opens. */
export interface TextMessageStartEvent extends EventFields {
  /** The discriminant. */
  type: 'TEXT_MESSAGE_START';
  /** The message's id. */
  messageId: string;
  /** Who it is from (default `assistant`). */
  role?: TextMessageRole;
  /** The author's name. */
  name?: string;
}

/** A piece of a text message. */
export interface TextMessageContentEvent extends EventFields {
  /** The discriminant. */
  type: 'TEXT_MESSAGE_CONTENT';
  /** The message's id. */
  messageId: string;
  /** The text to append. */
  delta: string;
}

/** A text message closes. */
export interface TextMessageEndEvent extends EventFields {
  /** The discriminant. */
  type: 'TEXT_MESSAGE_END';
  /** The message's id. */
  messageId: string;
}

/** Start, content and end in one: a chunk with a new `messageId` opens a message, one without continues the open one. */
export interface TextMessageChunkEvent extends EventFields {
  /** The discriminant. */
  type: 'TEXT_MESSAGE_CHUNK';
  /** The message's id (absent: the open message). */
  messageId?: string;
  /** Who it is from. */
  role?: TextMessageRole;
  /** The text to append. */
  delta?: string;
  /** The author's name. */
  name?: string;
}

/** A tool call opens. */
export interface ToolCallStartEvent extends EventFields {
  /** The discriminant. */
  type: 'TOOL_CALL_START';
  /** The call's id. */
  toolCallId: string;
  /** The tool's name. */
  toolCallName: string;
  /** The assistant message the call belongs to. */
  parentMessageId?: string;
}

/** A piece of a tool call's arguments (JSON text). */
export interface ToolCallArgsEvent extends EventFields {
  /** The discriminant. */
  type: 'TOOL_CALL_ARGS';
  /** The call's id. */
  toolCallId: string;
  /** The text to append. */
  delta: string;
}

/** A tool call closes: its arguments are complete. */
export interface ToolCallEndEvent extends EventFields {
  /** The discriminant. */
  type: 'TOOL_CALL_END';
  /** The call's id. */
  toolCallId: string;
}

/** Start, arguments and end in one: a chunk with a new `toolCallId` opens a call, one without continues the open one. */
export interface ToolCallChunkEvent extends EventFields {
  /** The discriminant. */
  type: 'TOOL_CALL_CHUNK';
  /** The call's id (absent: the open call). */
  toolCallId?: string;
  /** The tool's name (needed by the chunk that opens the call). */
  toolCallName?: string;
  /** The assistant message the call belongs to. */
  parentMessageId?: string;
  /** The text to append to the arguments. */
  delta?: string;
}

/** A text part of a message's content. */
export interface TextContentPart {
  /** The discriminant. */
  type: 'text';
  /** The part's id. */
  id?: string;
  /** The text. */
  text: string;
  /** Extra information. */
  metadata?: unknown;
}

/** Where a media part's bytes are: inline, at a URL, or a file the provider holds. */
export interface PartSource {
  /** `data`: base64 bytes in `value`; `url`: a URL; `file`: a provider's file handle. */
  type: 'data' | 'url' | 'file';
  /** The bytes, URL or handle. */
  value: string;
  /** The media type. */
  mimeType?: string;
  /** The provider that issued a file handle. */
  provider?: string;
}

/** An image, audio, video or document part of a message's content. */
export interface MediaContentPart {
  /** The discriminant. */
  type: 'image' | 'audio' | 'video' | 'document';
  /** The part's id. */
  id?: string;
  /** Where its bytes are. */
  source: PartSource;
  /** Extra information. */
  metadata?: unknown;
}

/** One part of a user message's or a tool result's content. */
export type ContentPart = TextContentPart | MediaContentPart;

/** What a tool returned; mints a tool message (`messageId`). */
export interface ToolCallResultEvent extends EventFields {
  /** The discriminant. */
  type: 'TOOL_CALL_RESULT';
  /** The id of the tool message it makes. */
  messageId: string;
  /** The call it answers. */
  toolCallId: string;
  /** The result: text (JSON for structured results), or content parts. */
  content: string | ContentPart[];
  /** Always `tool` when present. */
  role?: 'tool';
}

/** A span of reasoning opens (reasoning messages follow inside it). */
export interface ReasoningStartEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_START';
  /** The span's id. */
  messageId: string;
}

/** A reasoning message opens. */
export interface ReasoningMessageStartEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_MESSAGE_START';
  /** The reasoning message's id. */
  messageId: string;
  /** Always `reasoning`. */
  role: 'reasoning';
}

/** A piece of a reasoning message. */
export interface ReasoningMessageContentEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_MESSAGE_CONTENT';
  /** The reasoning message's id. */
  messageId: string;
  /** The text to append. */
  delta: string;
}

/** A reasoning message closes. */
export interface ReasoningMessageEndEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_MESSAGE_END';
  /** The reasoning message's id. */
  messageId: string;
}

/** Start, content and end of a reasoning message in one. */
export interface ReasoningMessageChunkEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_MESSAGE_CHUNK';
  /** The reasoning message's id (absent: the open one). */
  messageId?: string;
  /** The text to append. */
  delta?: string;
}

/** A span of reasoning closes. */
export interface ReasoningEndEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_END';
  /** The span's id. */
  messageId: string;
}

/** A provider's encrypted reasoning, to send back unread on a later turn. */
export interface ReasoningEncryptedValueEvent extends EventFields {
  /** The discriminant. */
  type: 'REASONING_ENCRYPTED_VALUE';
  /** Whether it belongs to a message or to a tool call. */
  subtype: 'tool-call' | 'message';
  /** The id of the message or tool call. */
  entityId: string;
  /** The encrypted value. */
  encryptedValue: string;
}

/** The agent's whole state. */
export interface StateSnapshotEvent extends EventFields {
  /** The discriminant. */
  type: 'STATE_SNAPSHOT';
  /** The state (any JSON value). */
  snapshot: unknown;
}

/** A change of the agent's state, as a JSON Patch (RFC 6902). */
export interface StateDeltaEvent extends EventFields {
  /** The discriminant. */
  type: 'STATE_DELTA';
  /** The patch's operations. */
  delta: unknown[];
}

/** Every message of the conversation the producer owns. */
export interface MessagesSnapshotEvent extends EventFields {
  /** The discriminant. */
  type: 'MESSAGES_SNAPSHOT';
  /** The messages, in order. */
  messages: Message[];
}

/** Structured progress shown as its own widget (a plan, a search). */
export interface ActivitySnapshotEvent extends EventFields {
  /** The discriminant. */
  type: 'ACTIVITY_SNAPSHOT';
  /** The activity message's id. */
  messageId: string;
  /** What kind of activity (`PLAN`, `SEARCH`, …). */
  activityType: string;
  /** Its content. */
  content: { readonly [key: string]: unknown };
  /** Whether it replaces an activity with the same id (default `true`). */
  replace?: boolean;
}

/** A change of an activity's content, as a JSON Patch. */
export interface ActivityDeltaEvent extends EventFields {
  /** The discriminant. */
  type: 'ACTIVITY_DELTA';
  /** The activity message's id. */
  messageId: string;
  /** What kind of activity. */
  activityType: string;
  /** The patch's operations. */
  patch: unknown[];
}

/** A provider's own event, passed through untranslated. */
export interface RawEvent extends EventFields {
  /** The discriminant. */
  type: 'RAW';
  /** The event. */
  event: unknown;
  /** Where it came from. */
  source?: string;
}

/** An application's own event. */
export interface CustomEvent extends EventFields {
  /** The discriminant. */
  type: 'CUSTOM';
  /** Its name. */
  name: string;
  /** Its value. */
  value: unknown;
}

/** A subagent invocation starts. */
export interface SubagentStartedEvent extends EventFields {
  /** The discriminant. */
  type: 'SUBAGENT_STARTED';
  /** The subagent's name. */
  name: string;
  /** What it does. */
  description?: string;
  /** The subagent that invoked it. */
  parentSubagentRunId?: string;
  /** The tool call that invoked it. */
  parentToolCallId?: string;
  /** The message that invoked it. */
  parentMessageId?: string;
}

/** A subagent invocation ends. */
export interface SubagentFinishedEvent extends EventFields {
  /** The discriminant. */
  type: 'SUBAGENT_FINISHED';
  /** Its result. */
  result?: unknown;
  /** How it ended: its work completed, or it waits for the interrupts named. */
  outcome?:
    | {
        /** It completed. */
        type: 'success';
      }
    | {
        /** It waits for outside input. */
        type: 'suspended';
        /** The interrupts it waits for. */
        interruptIds?: string[];
      };
}

/** A subagent invocation fails (the run may go on). */
export interface SubagentErrorEvent extends EventFields {
  /** The discriminant. */
  type: 'SUBAGENT_ERROR';
  /** What went wrong. */
  message: string;
  /** A machine-readable code. */
  code?: string;
}

/** Any AG-UI event (one SSE event's data). */
export type Event =
  | RunStartedEvent
  | RunFinishedEvent
  | RunErrorEvent
  | StepStartedEvent
  | StepFinishedEvent
  | TextMessageStartEvent
  | TextMessageContentEvent
  | TextMessageEndEvent
  | TextMessageChunkEvent
  | ToolCallStartEvent
  | ToolCallArgsEvent
  | ToolCallEndEvent
  | ToolCallChunkEvent
  | ToolCallResultEvent
  | ReasoningStartEvent
  | ReasoningMessageStartEvent
  | ReasoningMessageContentEvent
  | ReasoningMessageEndEvent
  | ReasoningMessageChunkEvent
  | ReasoningEndEvent
  | ReasoningEncryptedValueEvent
  | StateSnapshotEvent
  | StateDeltaEvent
  | MessagesSnapshotEvent
  | ActivitySnapshotEvent
  | ActivityDeltaEvent
  | RawEvent
  | CustomEvent
  | SubagentStartedEvent
  | SubagentFinishedEvent
  | SubagentErrorEvent;

// ---- RunAgentInput: what a client posts -------------------------------------------------------

/** The fields every message has. */
export interface MessageFields {
  /** The message's id. */
  id: string;
  /** Extra information. */
  metadata?: Metadata;
  /** A provider's encrypted value, sent back unread. */
  encryptedValue?: string;
  /** The subagent that wrote it. */
  subagentRunId?: string;
}

/** Instructions from the application's developer. */
export interface DeveloperMessage extends MessageFields {
  /** The discriminant. */
  role: 'developer';
  /** The instructions. */
  content: string;
  /** The author's name. */
  name?: string;
}

/** Instructions from the system. */
export interface SystemMessage extends MessageFields {
  /** The discriminant. */
  role: 'system';
  /** The instructions. */
  content: string;
  /** The author's name. */
  name?: string;
}

/** A call an assistant message made. */
export interface ToolCall {
  /** The call's id. */
  id: string;
  /** Always `function`. */
  type: 'function';
  /** The function called. */
  function: {
    /** The tool's name. */
    name: string;
    /** The arguments, as JSON text. */
    arguments: string;
  };
  /** A provider's encrypted value, sent back unread. */
  encryptedValue?: string;
  /** Extra information. */
  metadata?: Metadata;
}

/** The agent's earlier turn: its text and its tool calls. */
export interface AssistantMessage extends MessageFields {
  /** The discriminant. */
  role: 'assistant';
  /** The text (absent for a turn of tool calls only). */
  content?: string;
  /** The calls it made. */
  toolCalls?: ToolCall[];
  /** The author's name. */
  name?: string;
}

/** What the person using the application wrote. */
export interface UserMessage extends MessageFields {
  /** The discriminant. */
  role: 'user';
  /** The text, or content parts. */
  content: string | ContentPart[];
  /** The author's name. */
  name?: string;
}

/** What a tool returned. */
export interface ToolMessage extends MessageFields {
  /** The discriminant. */
  role: 'tool';
  /** The result. */
  content: string | ContentPart[];
  /** The call it answers. */
  toolCallId: string;
  /** The tool failed: why (`content` is what the model is shown). */
  error?: string;
}

/** Structured progress kept in the conversation (client-side: not for the model). */
export interface ActivityMessage extends MessageFields {
  /** The discriminant. */
  role: 'activity';
  /** What kind of activity. */
  activityType: string;
  /** Its content. */
  content: { readonly [key: string]: unknown };
}

/** Reasoning kept in the conversation (client-side: not for the model). */
export interface ReasoningMessage extends MessageFields {
  /** The discriminant. */
  role: 'reasoning';
  /** The reasoning text. */
  content: string;
}

/** One message of the conversation. */
export type Message = DeveloperMessage | SystemMessage | AssistantMessage | UserMessage | ToolMessage | ActivityMessage | ReasoningMessage;

/** A tool the client offers the agent (a frontend tool: the client runs it). */
export interface Tool {
  /** Its name. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** The JSON Schema of its arguments. */
  parameters?: unknown;
  /** Extra information. */
  metadata?: Metadata;
}

/** Ambient information the client gives the agent for the run. */
export interface Context {
  /** What it is. */
  description: string;
  /** Its value. */
  value: string;
}

/** An answer to an interrupt of the run this one continues. */
export interface ResumeEntry {
  /** The interrupt it answers. */
  interruptId: string;
  /** Answered, or withdrawn. */
  status: 'resolved' | 'cancelled';
  /** The answer. */
  payload?: unknown;
  /** Extra information. */
  metadata?: Metadata;
}

/** What a client posts to run the agent: the conversation, its tools, context and state. */
export interface RunAgentInput {
  /** The conversation's id. */
  threadId: string;
  /** The run's id. */
  runId: string;
  /** The protocol version the client speaks. */
  protocolVersion?: string;
  /** The run this one continues. */
  parentRunId?: string;
  /** The agent's state, as the client has it. */
  state?: unknown;
  /** The conversation so far. */
  messages: Message[];
  /** The tools the client offers (absent: none). */
  tools?: Tool[];
  /** Ambient information (absent: none). */
  context?: Context[];
  /** Anything else the client forwards to the agent (a model name, settings). */
  forwardedProps?: unknown;
  /** Answers to the interrupts of the run this one continues. */
  resume?: ResumeEntry[];
}
