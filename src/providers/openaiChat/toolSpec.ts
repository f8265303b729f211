/**
 * One tool as an OpenAI Chat Completions request's `tools[]` entry.
 *
 * @module
 */
import type { ToolSpecInput } from '../toolSpec';
import type { ChatFunctionTool } from './request';

/** `{ type: 'function', function: { name, description, parameters, strict? } }` (`strict` only when true). */
export function chatToolSpec(tool: ToolSpecInput): ChatFunctionTool {
  const fn: ChatFunctionTool['function'] = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (tool.strict) fn.strict = true;
  return { type: 'function', function: fn };
}
