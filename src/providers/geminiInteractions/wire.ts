/**
 * The Gemini Interactions API wire types (`POST /v1beta/interactions`): the steps of a
 * conversation (what `toolMessages('gemini-interactions', …)` writes into a request's `input`), its
 * function tools (what `toolSpecs(…, 'gemini-interactions')` writes), the create request (what
 * `toGeminiInteractionsRequest()` writes) and the streamed events (what `geminiInteractions()`
 * reads and `encodeGeminiInteractions()` writes).
 *
 * @module
 */
import type { JsonSchema } from '../openaiChat/wire';

/** A text content block (in a `user_input` or `model_output` step, or a thought's summary). */
export interface TextContent {
  /** Always `'text'`. */
  type: 'text';
  /** The text. */
  text: string;
}

/** The user's turn: its text (the first step of a conversation, or the next user message). */
export interface UserInputStep {
  /** Always `'user_input'`. */
  type: 'user_input';
  /** The turn's content blocks. */
  content: TextContent[];
}

/** The model's visible output: its text. */
export interface ModelOutputStep {
  /** Always `'model_output'`. */
  type: 'model_output';
  /** The output's content blocks. */
  content: TextContent[];
}

/** The model's thought: its signature (sent back verbatim) and its summary, when it gave one. */
export interface ThoughtStep {
  /** Always `'thought'`. */
  type: 'thought';
  /** The thought's signature, opaque; absent when it had none. */
  signature?: string;
  /** The thought's summary; absent when it had none. */
  summary?: TextContent[];
}

/** One call of a function tool the model made. */
export interface FunctionCallStep {
  /** Always `'function_call'`. */
  type: 'function_call';
  /** The call's id, which its `function_result` names. */
  id: string;
  /** The function's name. */
  name: string;
  /** The arguments, as a JSON object (`{}` when they were not one). */
  arguments: Record<string, unknown>;
  /** The call's thought signature, sent back verbatim; absent when it had none. */
  signature?: string;
}

/** One call's result, sent back as a step of the next request's `input`. */
export interface FunctionResultStep {
  /** Always `'function_result'`. */
  type: 'function_result';
  /** The id of the call it answers. */
  call_id: string;
  /** The function's name. */
  name: string;
  /** The result: the tool's output as text, or the error message of a failed run. */
  result: string;
  /** `true` for a failed run. */
  is_error?: boolean;
}

/**
 * A step of a tool the server ran (`google_search_call`, `code_execution_result`,
 * `mcp_server_tool_call`, …), kept as the stream gave it and sent back verbatim.
 */
export interface ServerToolStep {
  /** The step's type (`google_search_call`, `google_search_result`, `code_execution_call`, …). */
  type: string;
  /** The step's other fields, as the wire gave them. */
  [field: string]: unknown;
}

/** One step of a conversation (a request's `input`). */
export type Step = UserInputStep | ModelOutputStep | ThoughtStep | FunctionCallStep | FunctionResultStep;

/** One function the model may call. */
export interface FunctionTool {
  /** Always `'function'`. */
  type: 'function';
  /** The function's name. */
  name: string;
  /** What it does. */
  description?: string;
  /** The arguments' JSON Schema (the Interactions API takes JSON Schema as it is). */
  parameters: JsonSchema;
}

/** Which tools the model may or must call. */
export type ToolChoice =
  | 'auto'
  | 'any'
  | 'none'
  | {
      /** The functions the model may call. */
      allowed_tools: {
        /** `'any'`: it must call one of them; `'auto'`: it may. */
        mode: 'auto' | 'any' | 'validated';
        /** Their names. */
        tools: string[];
      };
    };

/** The body of `POST /v1beta/interactions` with a model (the conversation in `input`, no server-side history). */
export interface CreateInteractionBody {
  /** The model (e.g. `'gemini-3-flash-preview'`). */
  model: string;
  /** The conversation: its steps, oldest first. */
  input: Array<Step | ServerToolStep>;
  /** The system instruction (the leading system / developer messages, joined). */
  system_instruction?: string;
  /** The function tools. */
  tools?: FunctionTool[];
  /** Which tools the model may call. */
  tool_choice?: ToolChoice;
  /** Stream the interaction as Server-Sent Events. */
  stream?: boolean;
  /** Keep the interaction on the server (the API's default), to continue it by `previous_interaction_id`. */
  store?: boolean;
  /** Sampling, token limit and stop sequences. */
  generation_config?: {
    /** Sampling temperature. */
    temperature?: number;
    /** Nucleus sampling. */
    top_p?: number;
    /** The most tokens to generate. */
    max_output_tokens?: number;
    /** Sequences that end the output. */
    stop_sequences?: string[];
  };
}

/** An Interactions request: the path to POST to and its body. */
export interface Request {
  /** The model. */
  model: string;
  /** Whether the chat request asked to stream. */
  stream: boolean;
  /** The Gemini API path to POST to: `/v1beta/interactions`. */
  path: string;
  /** The JSON body. */
  body: CreateInteractionBody;
}

/** The statuses an interaction passes through (`requires_action`: its function calls wait for their results). */
export type InteractionStatus = 'in_progress' | 'requires_action' | 'completed' | 'failed' | 'cancelled' | 'incomplete' | 'budget_exceeded' | 'queued' | 'requires_continuation';

/** The token usage of an interaction (every count absent when not reported). */
export interface Usage {
  /** The input tokens, cached included. */
  total_input_tokens?: number;
  /** The visible output tokens. */
  total_output_tokens?: number;
  /** The thought tokens. */
  total_thought_tokens?: number;
  /** The input tokens read from the cache. */
  total_cached_tokens?: number;
  /** The tokens of the server tools' results the model read. */
  total_tool_use_tokens?: number;
  /** Every token. */
  total_tokens?: number;
}

/** The interaction as the lifecycle events carry it (a partial resource). */
export interface EventInteraction {
  /** The interaction's id. */
  id: string;
  /** Its status. */
  status: InteractionStatus;
  /** The model. */
  model?: string;
  /** Always `'interaction'`. */
  object?: 'interaction';
  /** The usage so far (on `interaction.completed`). */
  usage?: Usage;
}

/** A step's piece of new output. */
export type StepDelta =
  | {
      /** A piece of a function call's arguments: JSON text, to append. */
      type: 'arguments_delta';
      /** The piece. */
      arguments: string;
    }
  | {
      /** A piece of visible text. */
      type: 'text';
      /** The piece. */
      text: string;
    }
  | {
      /** A piece of a thought's summary. */
      type: 'thought_summary';
      /** The piece. */
      content: TextContent;
    }
  | {
      /** A thought's signature. */
      type: 'thought_signature';
      /** The signature. */
      signature: string;
    };

/** What every event of a streamed interaction carries. */
interface EventBase {
  /** Where the stream can be resumed after this event (`last_event_id`), when the server numbers its events. */
  event_id?: string;
}

/** The interaction was created (the first event). */
export interface CreatedEvent extends EventBase {
  /** Always `'interaction.created'`. */
  event_type: 'interaction.created';
  /** The interaction, `in_progress`. */
  interaction: EventInteraction;
}

/** The interaction's status changed (`requires_action`: its function calls wait for their results). */
export interface StatusUpdateEvent extends EventBase {
  /** Always `'interaction.status_update'`. */
  event_type: 'interaction.status_update';
  /** The interaction's id. */
  interaction_id: string;
  /** Its new status. */
  status: InteractionStatus;
  /** The usage so far, when the server reports it here. */
  usage?: Usage;
}

/** A step started: its type, and for a function call its id, name and signature. */
export interface StepStartEvent extends EventBase {
  /** Always `'step.start'`. */
  event_type: 'step.start';
  /** The step's position in the interaction. */
  index: number;
  /** The step as it starts (a function call's `arguments` are `{}`: they stream as `arguments_delta`s). */
  step: Step | ServerToolStep;
}

/** A piece of a step's output. */
export interface StepDeltaEvent extends EventBase {
  /** Always `'step.delta'`. */
  event_type: 'step.delta';
  /** The step's position. */
  index: number;
  /** The piece. */
  delta: StepDelta;
}

/** A step ended (a function call's arguments are whole). */
export interface StepStopEvent extends EventBase {
  /** Always `'step.stop'`. */
  event_type: 'step.stop';
  /** The step's position. */
  index: number;
}

/** The interaction's output ended (the terminator), with its final status and usage. */
export interface CompletedEvent extends EventBase {
  /** Always `'interaction.completed'`. */
  event_type: 'interaction.completed';
  /** The interaction, with its final status and usage. */
  interaction: EventInteraction;
}

/** The interaction failed. */
export interface ErrorEvent extends EventBase {
  /** Always `'error'`. */
  event_type: 'error';
  /** What went wrong. */
  error: {
    /** The error's code (e.g. `'resource_exhausted'`, `'unavailable'`). */
    code?: string;
    /** What happened, for a person. */
    message?: string;
  };
}

/** Every event of a streamed interaction (an SSE event named by its `event_type`). */
export type StreamEvent = CreatedEvent | StatusUpdateEvent | StepStartEvent | StepDeltaEvent | StepStopEvent | CompletedEvent | ErrorEvent;
