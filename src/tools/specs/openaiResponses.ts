/**
 * One tool as an OpenAI Responses request's `tools[]` entry.
 *
 * @module
 */
import type * as ResponsesWire from '../../providers/openaiResponses/wire';
import type { ToolSpecInput } from './shared';

/** A custom tool: `{ type: 'custom', name, description, format }`. */
export function responsesCustomToolSpec(tool: ToolSpecInput, format: ResponsesWire.CustomToolFormat | undefined): ResponsesWire.CustomTool {
  const out: ResponsesWire.CustomTool = { type: 'custom', name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  if (format !== undefined) out.format = format.type === 'text' ? { type: 'text' } : { type: 'grammar', syntax: format.syntax, definition: format.definition };
  if (tool.deferLoading === true) out.defer_loading = true;
  return out;
}

/** `{ type: 'function', name, description, parameters, strict }` (`strict` always written: the API's default is `true`). */
export function responsesToolSpec(tool: ToolSpecInput): ResponsesWire.FunctionTool {
  const out: ResponsesWire.FunctionTool = { type: 'function', name: tool.name, parameters: { ...tool.parameters }, strict: tool.strict };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.deferLoading === true) out.defer_loading = true;
  return out;
}
