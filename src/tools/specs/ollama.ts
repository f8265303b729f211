/**
 * One tool as an Ollama `/api/chat` request's `tools[]` entry.
 *
 * @module
 */
import type * as OllamaWire from '../../providers/ollama/wire';
import type { ToolSpecInput } from './shared';

/** `{ type: 'function', function: { name, description, parameters } }` (Ollama has no strict mode). */
export function ollamaToolSpec(tool: ToolSpecInput): OllamaWire.Tool {
  const out: OllamaWire.Tool = { type: 'function', function: { name: tool.name, parameters: tool.parameters } };
  if (tool.description !== undefined) out.function.description = tool.description;
  return out;
}
