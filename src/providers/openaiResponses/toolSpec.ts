/**
 * One tool as an OpenAI Responses request's `tools[]` entry.
 *
 * @module
 */
import type { ToolSpecInput } from '../toolSpec';
import type { ResponsesFunctionTool } from './request';

/** `{ type: 'function', name, description, parameters, strict }` (`strict` always written: the API's default is `true`). */
export function responsesToolSpec(tool: ToolSpecInput): ResponsesFunctionTool {
  const out: ResponsesFunctionTool = { type: 'function', name: tool.name, parameters: { ...tool.parameters }, strict: tool.strict };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}
