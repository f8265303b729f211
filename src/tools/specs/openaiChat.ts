/**
 * One tool as an OpenAI Chat Completions request's `tools[]` entry.
 *
 * @module
 */
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';
import type { CustomToolFormat } from '../../providers/openaiResponses/wire';
import type { ToolSpecInput } from './shared';

/** A format as chat writes it. */
function chatFormat(format: CustomToolFormat): NonNullable<OpenAIChatWire.CustomTool['custom']['format']> {
  return format.type === 'text' ? { type: 'text' } : { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } };
}

/** A custom tool: `{ type: 'custom', custom: { name, description, format } }`. */
export function chatCustomToolSpec(tool: ToolSpecInput, format: CustomToolFormat | undefined): OpenAIChatWire.CustomTool {
  const custom: OpenAIChatWire.CustomTool['custom'] = { name: tool.name };
  if (tool.description !== undefined) custom.description = tool.description;
  if (format !== undefined) custom.format = chatFormat(format);
  return { type: 'custom', custom };
}

/** `{ type: 'function', function: { name, description, parameters, strict? } }` (`strict` only when true). */
export function chatToolSpec(tool: ToolSpecInput): OpenAIChatWire.FunctionTool {
  const fn: OpenAIChatWire.FunctionTool['function'] = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (tool.strict) fn.strict = true;
  return { type: 'function', function: fn };
}
