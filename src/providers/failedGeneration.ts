/**
 * The tool call inside a provider's rejected generation (Groq's `tool_use_failed` error carries
 * the model's text as `failed_generation`). Read for the error's `failedCall` only: the provider
 * refused it, so it is never run and never becomes a result.
 *
 * @module
 */
import type { FailedToolCall } from '../errors';

/** A tool name as models write them: no braces, brackets, `=`, `>` or spaces. */
const NAME = '[A-Za-z_][\\w.-]*';

/**
 * `<function=NAME>{…}</function>` (Llama 3.x's own syntax), `<function=NAME={…}</function>`,
 * `<function=NAME{…}</function>`: the tag, the name, an optional `>` or `=`, the arguments.
 */
const FUNCTION_TAG = /* @__PURE__ */ new RegExp(`^<function=(${NAME})[>=]?\\s*([\\s\\S]*?)\\s*</function>\\s*$`);
/** `NAME{…}</function>`: the same with the opening `<function=` missing. */
const UNOPENED_TAG = /* @__PURE__ */ new RegExp(`^(${NAME})\\s*(\\{[\\s\\S]*\\})\\s*</function>\\s*$`);
/** Wrappers around a JSON call: a code fence (```` ```json ````), `<tool-use>`, `<tool_call>`. */
const WRAPPER = /^(?:```[a-z]*|<tool[-_](?:use|call)>)\s*([\s\S]*?)\s*(?:```|<\/tool[-_](?:use|call)>)$/;

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Arguments as a JSON object: an object, or a string holding one (OpenAI's `"arguments": "{…}"`). */
function argumentsOf(value: unknown): Record<string, unknown> | undefined {
  return record(typeof value === 'string' ? parseJson(value) : value);
}

/** One call object: `{ name, arguments | parameters }` or `{ function: { name, arguments? }, parameters? }`. */
function callOf(value: unknown): FailedToolCall | undefined {
  const call = record(value);
  if (call === undefined) return undefined;
  const fn = record(call['function']);
  const name = typeof call['name'] === 'string' ? call['name'] : fn !== undefined && typeof fn['name'] === 'string' ? fn['name'] : undefined;
  if (name === undefined || name === '') return undefined;
  const args = argumentsOf(call['arguments'] ?? call['parameters'] ?? fn?.['arguments'] ?? fn?.['parameters']);
  return args === undefined ? undefined : { name, arguments: args };
}

/** A JSON document holding exactly one call: the call, `[call]`, or `{ "tool_calls": [call] }`. */
function jsonCall(text: string): FailedToolCall | undefined {
  const unwrapped = WRAPPER.exec(text)?.[1] ?? text;
  let value = parseJson(unwrapped);
  const toolCalls = record(value)?.['tool_calls'];
  if (toolCalls !== undefined) value = toolCalls;
  if (Array.isArray(value)) return value.length === 1 ? callOf(value[0]) : undefined;
  return callOf(value);
}

function tagCall(match: RegExpExecArray | null): FailedToolCall | undefined {
  if (match === null) return undefined;
  const args = argumentsOf(parseJson(match[2] ?? ''));
  return args === undefined ? undefined : { name: match[1] ?? '', arguments: args };
}

/**
 * The one tool call a rejected generation holds, or `undefined` (no call, more than one, or
 * arguments that are not a JSON object).
 *
 * 1. `<function=get_weather>{"city": "Paris"}</function>`, also with `=` or nothing between the
 *    name and the arguments, and after some text ("Let me check.<function=…"); exactly one tag.
 * 2. `get_weather{"city": "Paris"}</function>` (the opening `<function=` missing).
 * 3. JSON: `{"name": …, "arguments" | "parameters": {…}}`, a one-element array of it, or
 *    `{"tool_calls": [one call]}` (name in `function.name`, arguments in `parameters` or
 *    `function.arguments`), optionally inside a code fence or `<tool-use>` / `<tool_call>` tags.
 *    Arguments given as a JSON string are parsed.
 *
 * @param text The provider's `failed_generation`.
 * @return The call with its parsed arguments, or `undefined`.
 */
export function parseFailedGeneration(text: string): FailedToolCall | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const tag = trimmed.indexOf('<function=');
  if (tag >= 0) return trimmed.indexOf('<function=', tag + 1) >= 0 ? undefined : tagCall(FUNCTION_TAG.exec(trimmed.slice(tag)));
  return tagCall(UNOPENED_TAG.exec(trimmed)) ?? jsonCall(trimmed);
}
