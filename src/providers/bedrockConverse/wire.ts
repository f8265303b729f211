/**
 * The Bedrock Converse wire types: the request (what `toConverseRequest()` writes), its messages
 * and blocks (what `toolMessages('bedrock-converse', …)` writes) and its tools (what `toolSpecs(…,
 * 'bedrock-converse')` writes). The shapes are the JSON of Bedrock's HTTP API (`redactedContent` as
 * base64 text; the AWS SDK takes its bytes).
 *
 * @module
 */

/** A JSON value: what Converse calls a document (a call's input, a tool's schema). */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;

/** A JSON object (see {@link JsonValue}). */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** A text block. */
export interface TextBlock {
  /** The text. */
  text: string;
}

/** A reasoning block, sent back so the model can continue its reasoning. */
export interface ReasoningBlock {
  /** The reasoning. */
  reasoningContent:
    | {
        /** The reasoning text and its signature, verbatim from the stream. */
        reasoningText: {
          /** The reasoning text. */
          text: string;
          /** The block's signature. */
          signature: string;
        };
      }
    | {
        /** A reasoning block the provider encrypted (base64), sent back as it came. */
        redactedContent: string;
      };
}

/** A `toolUse` block: one call the assistant made. */
export interface ToolUseBlock {
  /** The call. */
  toolUse: {
    /** The call's id (e.g. `'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q'`); the `toolResult` answering it repeats it. */
    toolUseId: string;
    /** The tool name. */
    name: string;
    /** The arguments, as a JSON object (`{}` when they were not one). */
    input: JsonObject;
  };
}

/** A `toolResult` block: one call's result, in a user message. */
export interface ToolResultBlock {
  /** The result. */
  toolResult: {
    /** The `toolUseId` of the call this answers. */
    toolUseId: string;
    /** The result (the tool's output as text, or the error message of a failed run), as one text block. */
    content: TextBlock[];
    /** `'error'` for a failed run; absent on success. */
    status?: 'error';
  };
}

/** One content block of an assistant message: text, reasoning, or a tool use. */
export type AssistantBlock = TextBlock | ReasoningBlock | ToolUseBlock;

/** A `user` message: tool results first, then text (Converse sends tool results in a user turn). */
export interface UserMessage {
  /** Always `'user'`. */
  role: 'user';
  /** The blocks. */
  content: Array<TextBlock | ToolResultBlock>;
}

/**
 * An `assistant` message: its reasoning, text and `toolUse` blocks, in the order they were streamed.
 * `Block`: the blocks it may hold (every kind by default; a request's: text and tool uses).
 */
export interface AssistantMessage<Block extends AssistantBlock = AssistantBlock> {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The blocks. */
  content: Block[];
}

/**
 * One message of a {@link RequestBody}: roles alternate (consecutive turns of one role are one
 * message). An assistant message of a request holds text and `toolUse` blocks (a chat request has
 * no reasoning blocks to translate), so the body is the AWS SDK's command input as it is.
 */
export type Message = UserMessage | AssistantMessage<TextBlock | ToolUseBlock>;

/** One tool the model may call. */
export interface Tool {
  /** Its specification. */
  toolSpec: {
    /** The tool name. */
    name: string;
    /** What it does. */
    description?: string;
    /** The arguments' JSON Schema (an object schema). */
    inputSchema: {
      /** The schema. */
      json: JsonObject;
    };
  };
}

/** How the model may call tools: it decides, it must call one, or it must call this one. */
export type ToolChoice =
  | {
      /** The model decides. */
      auto: Record<string, never>;
    }
  | {
      /** The model must call a tool. */
      any: Record<string, never>;
    }
  | {
      /** The model must call this tool. */
      tool: {
        /** Its name. */
        name: string;
      };
    };

/** The body of a `Converse` / `ConverseStream` request (the AWS SDK's command input without `modelId`). */
export interface RequestBody {
  /** The conversation. */
  messages: Message[];
  /** The leading system / developer messages, one block per text. */
  system?: TextBlock[];
  /** Token limit, sampling and stop sequences. */
  inferenceConfig?: {
    /** The most tokens to generate. */
    maxTokens?: number;
    /** Sampling temperature. */
    temperature?: number;
    /** Nucleus sampling. */
    topP?: number;
    /** Sequences that end the generation. */
    stopSequences?: string[];
  };
  /** The tools, and how the model may call them. */
  toolConfig?: {
    /** The tools. */
    tools: Tool[];
    /** How the model may call them. */
    toolChoice?: ToolChoice;
  };
}

/** A Converse request: the model and streaming live in the URL, so they come beside the body. */
export interface Request {
  /** The model or inference-profile id (e.g. `'anthropic.claude-sonnet-4-5-20250929-v1:0'`). */
  modelId: string;
  /** Whether the chat request asked to stream. */
  stream: boolean;
  /** The Bedrock runtime path to POST to: `/model/{modelId}/converse-stream` or `/model/{modelId}/converse`. */
  path: string;
  /** The JSON body (with the AWS SDK: `new ConverseStreamCommand({ modelId, ...body })`). */
  body: RequestBody;
}
