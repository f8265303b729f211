/**
 * The Gemini `generateContent` wire types: the request (what `toGeminiRequest()` writes), its
 * contents and parts (what `toolMessages('gemini', …)` writes), its function declarations and
 * their schema (what `toolSpecs(…, 'gemini')` and `toGeminiSchema()` write).
 *
 * @module
 */
import type { JsonSchema } from '../openaiChat/wire';

/** A text part: visible text, or (with `thought`) the model's thought text. */
export interface TextPart {
  /** The text. */
  text: string;
  /** `true` for a thought part. */
  thought?: boolean;
  /** The part's thought signature, sent back verbatim on the part it came with; absent when it had none. */
  thoughtSignature?: string;
}

/** A `functionCall` part: one call the model made. */
export interface FunctionCallPart {
  /** The call. */
  functionCall: {
    /** The function name. */
    name: string;
    /** The arguments, as a JSON object (`{}` when they were not one). */
    args: Record<string, unknown>;
    /** The call's id; absent when Gemini sent none (not every Gemini endpoint accepts one). */
    id?: string;
  };
  /** The part's thought signature, sent back verbatim (Gemini 3 rejects a history of calls without one). */
  thoughtSignature?: string;
}

/** A `functionResponse` part: one call's result. */
export interface FunctionResponsePart {
  /** The result. */
  functionResponse: {
    /** The name of the function whose call this answers. */
    name: string;
    /** `{ output }` with the output on success, `{ error }` with the message on failure. */
    response: Record<string, unknown>;
    /** The id of the call this answers; absent when the call had none. */
    id?: string;
  };
}

/** One part of a {@link Content}. */
export type Part = TextPart | FunctionCallPart | FunctionResponsePart;

/** One turn of the conversation. */
export interface Content {
  /** `'user'` (user text and function responses) or `'model'`. */
  role: 'user' | 'model';
  /** The turn's parts, in the order they were streamed. */
  parts: Part[];
}

/** Gemini's schema types. */
export type SchemaType = 'STRING' | 'NUMBER' | 'INTEGER' | 'BOOLEAN' | 'ARRAY' | 'OBJECT' | 'NULL';

/** The schema Gemini's function declarations accept (a subset of OpenAPI 3.0). */
export interface Schema {
  /** The value's type (absent: any). */
  type?: SchemaType;
  /** A format hint (`date-time`, `enum`, `int32`, `int64`, `float`, `double`). */
  format?: string;
  /** A title. */
  title?: string;
  /** What the value means, for the model. */
  description?: string;
  /** The value may also be `null`. */
  nullable?: boolean;
  /** The allowed values, as strings. */
  enum?: string[];
  /** A default value. */
  default?: unknown;
  /** An example value. */
  example?: unknown;
  /** The schema of an array's items. */
  items?: Schema;
  /** The fewest array items. */
  minItems?: number;
  /** The most array items. */
  maxItems?: number;
  /** An object's properties. */
  properties?: { [name: string]: Schema };
  /** The properties an object must have. */
  required?: string[];
  /** The order properties are generated in. */
  propertyOrdering?: string[];
  /** The fewest properties. */
  minProperties?: number;
  /** The most properties. */
  maxProperties?: number;
  /** The shortest string. */
  minLength?: number;
  /** The longest string. */
  maxLength?: number;
  /** A regular expression strings must match. */
  pattern?: string;
  /** The smallest number (inclusive). */
  minimum?: number;
  /** The largest number (inclusive). */
  maximum?: number;
  /** The value matches at least one of these. */
  anyOf?: Schema[];
}

/** One function the model may call. */
export interface FunctionDeclaration {
  /** The function name. */
  name: string;
  /** What it does. */
  description?: string;
  /** The arguments' schema, cleaned by `toGeminiSchema()` (absent when the function takes none). */
  parameters?: Schema;
  /** The arguments' JSON Schema, unchanged (`toGeminiRequest()` with `schemaField: 'parametersJsonSchema'`). */
  parametersJsonSchema?: JsonSchema;
}

/** The functions of a request, in one tool. */
export interface Tool {
  /** One declaration per function. */
  functionDeclarations: FunctionDeclaration[];
}

/** How Gemini may call functions. */
export interface FunctionCallingConfig {
  /** `AUTO` (it decides), `ANY` (it must call one), `NONE`. */
  mode: 'AUTO' | 'ANY' | 'NONE';
  /** With `ANY`: the functions it may call. */
  allowedFunctionNames?: string[];
}

/** The `generateContent` / `streamGenerateContent` request body. */
export interface GenerateContentRequest {
  /** The conversation. */
  contents: Content[];
  /** The leading system / developer messages. */
  systemInstruction?: {
    /** One text part per system text. */
    parts: TextPart[];
  };
  /** The functions, in one tool. */
  tools?: Tool[];
  /** How the model may call them. */
  toolConfig?: {
    /** The function-calling mode. */
    functionCallingConfig: FunctionCallingConfig;
  };
  /** Token limit, sampling, stop sequences and candidate count. */
  generationConfig?: {
    /** The most tokens to generate. */
    maxOutputTokens?: number;
    /** Sampling temperature. */
    temperature?: number;
    /** Nucleus sampling. */
    topP?: number;
    /** Sequences that end the generation. */
    stopSequences?: string[];
    /** The number of candidates (the chat request's `n`). */
    candidateCount?: number;
  };
}

/** A Gemini request: the model and streaming live in the URL, so they come beside the body. */
export interface Request {
  /** The model (without a `models/` prefix). */
  model: string;
  /** Whether the chat request asked to stream. */
  stream: boolean;
  /** The Gemini API path to POST to: `/v1beta/models/{model}:streamGenerateContent?alt=sse` or `…:generateContent`. */
  path: string;
  /** The JSON body. */
  body: GenerateContentRequest;
}
