/**
 * One tool as an Ollama `/api/chat` request's `tools[]` entry.
 *
 * @module
 */
import type { ToolSpecInput } from '../toolSpec';
import type { OllamaTool } from './request';

/** `{ type: 'function', function: { name, description, parameters } }` (Ollama has no strict mode). */
export function ollamaToolSpec(tool: ToolSpecInput): OllamaTool {
  const out: OllamaTool = { type: 'function', function: { name: tool.name, parameters: tool.parameters } };
  if (tool.description !== undefined) out.function.description = tool.description;
  return out;
}
