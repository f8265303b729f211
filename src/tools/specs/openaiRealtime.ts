/**
 * One tool as an OpenAI Realtime session's `tools[]` entry (`session.update`, `response.create`).
 *
 * @module
 */
import type * as RealtimeWire from '../../providers/openaiRealtime/wire';
import type { ToolSpecInput } from './shared';

/** `{ type: 'function', name, description, parameters }` (Realtime has neither strict mode nor custom tools). */
export function realtimeToolSpec(tool: ToolSpecInput): RealtimeWire.FunctionTool {
  const out: RealtimeWire.FunctionTool = { type: 'function', name: tool.name, parameters: { ...tool.parameters } };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}
