/**
 * The OpenAI Responses wire types: the request (what `toResponsesRequest()` writes), its input
 * items (what `toolMessages('openai-responses', …)` writes) and its tools (what `toolSpecs(…,
 * 'openai-responses')` writes). Checked against the `openai` SDK's types in
 * `spec/types/requests.test-d.ts` and `spec/types/messages.test-d.ts`; arrays are mutable so the
 * values go straight into the SDK's request types.
 *
 * @module
 */

/** An `input_text` content part. */
export interface InputText {
  /** Always `'input_text'`. */
  type: 'input_text';
  /** The text. */
  text: string;
}

/** A message input item. */
export type MessageItem =
  | {
      /** `'user'`, `'system'` or `'developer'`. */
      role: 'user' | 'system' | 'developer';
      /** The text, as a string or `input_text` parts. */
      content: string | InputText[];
    }
  | AssistantMessageItem;

/** An `assistant` message input item: an earlier turn's visible text. */
export interface AssistantMessageItem {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The visible text. */
  content: string;
}

/** A `reasoning` input item: one reasoning item of an earlier turn, sent back before the items that followed it. */
export interface ReasoningItem {
  /** Always `'reasoning'`. */
  type: 'reasoning';
  /** The item's id (`rs_…`), as streamed. */
  id: string;
  /** The item's summary parts, as streamed (`[]` when it had none). */
  summary: Array<{
    /** Always `'summary_text'`. */
    type: 'summary_text';
    /** One summary's text. */
    text: string;
  }>;
  /** The item's `reasoning_text` content (open-weight models' servers); absent when it had none. */
  content?: Array<{
    /** Always `'reasoning_text'`. */
    type: 'reasoning_text';
    /** The reasoning text. */
    text: string;
  }>;
  /** The item's `encrypted_content`, verbatim (present when the request had `include: ['reasoning.encrypted_content']`). */
  encrypted_content?: string;
}

/** A `function_call` input item: one call an earlier turn made. */
export interface FunctionCallItem {
  /** Always `'function_call'`. */
  type: 'function_call';
  /** The item's id (`fc_…`), sent when the turn's reasoning items are (the API pairs them by id). */
  id?: string;
  /** The call's id (e.g. `'call_abc123'`), repeated by its `function_call_output`. */
  call_id: string;
  /** The tool name. */
  name: string;
  /** The arguments JSON text, exactly as the model streamed it (`'{}'` when it sent none). */
  arguments: string;
  /** Who made the call: `{ type: 'program', caller_id }` for a programmatic tool call's program (absent: the model). */
  caller?: Caller;
}

/** Who made a call: the model (`direct`), or the `program` item (by its `call_id`) of a programmatic tool call. */
export type Caller =
  | {
      /** The model made the call. */
      readonly type: 'direct';
    }
  | {
      /** A programmatic tool call's program made the call. */
      readonly type: 'program';
      /** The `call_id` of the `program` item that made it. */
      readonly caller_id: string;
    };

/** A `function_call_output` input item: one call's result. */
export interface FunctionCallOutputItem {
  /** Always `'function_call_output'`. */
  type: 'function_call_output';
  /** The `call_id` of the call this answers. */
  call_id: string;
  /** The result (the tool's output as text, or the error message of a failed run), as a string or `input_text` parts. */
  output: string | InputText[];
  /** The call's `caller`, repeated (a programmatic call's output goes back to its program). */
  caller?: Caller;
}

/** A `custom_tool_call` input item: one call of a custom (freeform) tool. */
export interface CustomToolCallItem {
  /** Always `'custom_tool_call'`. */
  type: 'custom_tool_call';
  /** The item's id (`ctc_…`), sent when the turn's reasoning items are. */
  id?: string;
  /** The call's id, repeated by its `custom_tool_call_output`. */
  call_id: string;
  /** The tool name. */
  name: string;
  /** The input text, as the model streamed it. */
  input: string;
  /** Who made the call (see {@link FunctionCallItem.caller}). */
  caller?: Caller;
}

/** A `custom_tool_call_output` input item: one custom tool call's result. */
export interface CustomToolCallOutputItem {
  /** Always `'custom_tool_call_output'`. */
  type: 'custom_tool_call_output';
  /** The `call_id` of the call this answers. */
  call_id: string;
  /** The tool's output as text, or the error message of a failed run. */
  output: string;
  /** The call's `caller`, repeated. */
  caller?: Caller;
}

/** One input item of a {@link Request}. */
export type InputItem = MessageItem | ReasoningItem | FunctionCallItem | FunctionCallOutputItem | CustomToolCallItem | CustomToolCallOutputItem;

/** A function tool. */
export interface FunctionTool {
  /** Always `'function'`. */
  type: 'function';
  /** The tool name. */
  name: string;
  /** What the tool does. */
  description?: string;
  /** The arguments' JSON Schema. */
  parameters: { [keyword: string]: unknown };
  /** Strict schema adherence: always written (Responses' own default is `true`). */
  strict: boolean;
  /** Leave the tool out of the model's context until a `tool_search` loads it. */
  defer_loading?: boolean;
}

/**
 * What a custom (freeform) tool's input text must be: any text (`{ type: 'text' }`, the default),
 * or text in a grammar (`lark` or `regex` syntax). Chat nests the grammar (`grammar: { syntax,
 * definition }`).
 */
export type CustomToolFormat =
  | {
      /** Any text. */
      readonly type: 'text';
    }
  | {
      /** Text in a grammar. */
      readonly type: 'grammar';
      /** The grammar's syntax. */
      readonly syntax: 'lark' | 'regex';
      /** The grammar itself (e.g. a Lark grammar of a patch format). */
      readonly definition: string;
    };

/** A custom (freeform) tool: its input is text, not JSON. */
export interface CustomTool {
  /** Always `'custom'`. */
  type: 'custom';
  /** The tool name. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** What its input text must be. */
  format?: CustomToolFormat;
  /** Leave the tool out of the model's context until a `tool_search` loads it. */
  defer_loading?: boolean;
}

/** A Responses request, as `toResponsesRequest()` writes it. */
export interface Request {
  /** The model. */
  model: string;
  /** The conversation as input items. */
  input: InputItem[];
  /** The leading system / developer messages, with the `instructions` option. */
  instructions?: string;
  /** The tools. */
  tools?: FunctionTool[];
  /** How the model may use them. */
  tool_choice?:
    | 'auto'
    | 'none'
    | 'required'
    | {
        /** Always `'function'`: the model must call the named function. */
        type: 'function';
        /** The function to call. */
        name: string;
      };
  /** `false`: at most one tool call per turn. */
  parallel_tool_calls?: boolean;
  /** The most tokens to generate (reasoning included). */
  max_output_tokens?: number;
  /** Sampling temperature. */
  temperature?: number;
  /** Nucleus sampling. */
  top_p?: number;
  /** Whether to stream. */
  stream?: boolean;
  /** Stream obfuscation (the chat request's `stream_options.include_obfuscation`). */
  stream_options?: {
    /** Whether stream events carry obfuscation padding. */
    include_obfuscation: boolean;
  };
  /** Whether OpenAI stores the response: the chat request's `store`, `false` by default (as in Chat Completions; the Responses default is `true`). */
  store: boolean;
  /** An end-user id. */
  user?: string;
}

/**
 * The fields of a WebSocket-mode turn besides its `type`, `input` and `previous_response_id`: a
 * Responses request's (`model`, `instructions`, `tools`, `store`, `include`, `reasoning`, …), without
 * `stream` (a socket always streams) and `background` (a socket does not take it).
 */
export interface TurnFields {
  /** The model. */
  model?: string;
  /** The system / developer instructions (not carried over by `previous_response_id`: send them every turn). */
  instructions?: string;
  /** The tools (custom tools too). */
  tools?: Array<FunctionTool | CustomTool>;
  /** How the model may use them. */
  tool_choice?: Request['tool_choice'];
  /** `false`: at most one tool call per turn. */
  parallel_tool_calls?: boolean;
  /**
   * Whether OpenAI stores the response (the API's default is `true`). With `false` (and with Zero
   * Data Retention) only the socket's most recent response can be chained from, and a turn sent
   * whole again must carry reasoning as `encrypted_content` (`include: ['reasoning.encrypted_content']`).
   */
  store?: boolean;
  /** Extra output to include, e.g. `['reasoning.encrypted_content']`. */
  include?: string[];
  /** The most tokens to generate (reasoning included). */
  max_output_tokens?: number;
  /** Any other field of a Responses request (`reasoning`, `text`, `metadata`, `temperature`, …), sent as it is. */
  [field: string]: unknown;
}

/** A WebSocket-mode turn: the text message a client sends to start one response on the socket. */
export interface ResponseCreateEvent extends TurnFields {
  /** Always `'response.create'`. */
  type: 'response.create';
  /** The new input items: the whole conversation, or what came after `previous_response_id`'s response. */
  input: InputItem[];
  /** The response this turn continues (its input and output are the turn's context). */
  previous_response_id?: string;
}

/**
 * A Responses request as `fromResponsesRequest()` accepts it (any `ResponseCreateParams` value of
 * the `openai` SDK, or a WebSocket turn's fields): `input` as text or items, read item by item.
 * Fields it cannot translate are rejected at run time with `unsupported-request` unless ignored.
 */
export interface RequestInput {
  /** The model (required at run time). */
  readonly model?: string;
  /** The conversation: a user's text, or input items (messages, calls, call outputs, …). */
  readonly input?: string | ReadonlyArray<unknown>;
  /** Streaming. */
  readonly stream?: boolean | null;
}
