/**
 * The Ollama `/api/chat` wire types: the request (what `toOllamaRequest()` writes), its messages
 * (what `toolMessages('ollama', …)` writes) and its tools (what `toolSpecs(…, 'ollama')` writes).
 *
 * @module
 */
import type { JsonSchema } from '../openaiChat/wire';

/** One call an assistant message made. */
export interface ToolCall {
  /** The function called. */
  function: {
    /** The tool name. */
    name: string;
    /** The arguments, as a JSON object (`{}` when they were not one). */
    arguments: Record<string, unknown>;
  };
}

/** A `system` message (system and developer messages, anywhere in the conversation) or a `user` message. */
export interface TextMessage {
  /** `'system'` or `'user'`. */
  role: 'system' | 'user';
  /** The text (parts joined). */
  content: string;
}

/** An `assistant` message. */
export interface AssistantMessage {
  /** Always `'assistant'`. */
  role: 'assistant';
  /** The visible text (`''` when the model only called tools). */
  content: string;
  /** The turn's thinking text; absent when it had none. */
  thinking?: string;
  /** The calls; absent when there are none. */
  tool_calls?: ToolCall[];
}

/** A `tool` message: one call's result. */
export interface ToolMessage {
  /** Always `'tool'`. */
  role: 'tool';
  /** The result (the tool's output as text, or the error message of a failed run). */
  content: string;
  /** The name of the tool that ran (Ollama matches results to calls by name and order). */
  tool_name: string;
}

/** One message of a {@link ChatRequestBody}. */
export type Message = TextMessage | AssistantMessage | ToolMessage;

/** One tool the model may call. */
export interface Tool {
  /** Always `'function'`. */
  type: 'function';
  /** The function. */
  function: {
    /** Its name. */
    name: string;
    /** What it does. */
    description?: string;
    /** The arguments' JSON Schema. */
    parameters?: JsonSchema;
  };
}

/** The body of an `/api/chat` request. */
export interface ChatRequestBody {
  /** The model (e.g. `'qwen3:8b'`). */
  model: string;
  /** The conversation. */
  messages: Message[];
  /** The tools. */
  tools?: Tool[];
  /** Stream NDJSON (`true`) or answer once; always written (Ollama streams when it is absent). */
  stream: boolean;
  /** Sampling, token limit and stop sequences. */
  options?: {
    /** Sampling temperature. */
    temperature?: number;
    /** Nucleus sampling. */
    top_p?: number;
    /** The most tokens to generate. */
    num_predict?: number;
    /** Sequences that end the generation. */
    stop?: string[];
  };
}

/** An Ollama request: the path and the body. */
export interface Request {
  /** The model. */
  model: string;
  /** Whether the chat request asked to stream. */
  stream: boolean;
  /** Always `/api/chat`. */
  path: '/api/chat';
  /** The JSON body. */
  body: ChatRequestBody;
}
