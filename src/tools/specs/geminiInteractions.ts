/**
 * One tool as a Gemini Interactions request's `tools[]` entry.
 *
 * @module
 */
import type * as GeminiInteractionsWire from '../../providers/geminiInteractions/wire';
import type { ToolSpecInput } from './shared';

/** `{ type: 'function', name, description, parameters }`: the Interactions API takes the JSON Schema as it is (no Gemini schema conversion). */
export function geminiInteractionsToolSpec(tool: ToolSpecInput): GeminiInteractionsWire.FunctionTool {
  const out: GeminiInteractionsWire.FunctionTool = { type: 'function', name: tool.name, parameters: tool.parameters };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}
