/**
 * One tool as a Gemini `functionDeclarations[]` entry, its schema cleaned by `toGeminiSchema()`.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type * as GeminiWire from '../../providers/gemini/wire';
import { toGeminiSchema, type GeminiSchemaDrop } from './geminiSchema';
import type { ToolSpecInput } from './shared';

/** `{ name, description, parameters }` with the keywords Gemini rejects dropped (each reported to `onDrop`). */
export function geminiToolSpec(tool: ToolSpecInput, onDrop?: (drop: GeminiSchemaDrop) => void, maxDepth?: number): GeminiWire.FunctionDeclaration {
  const path = `${tool.name}.parameters`;
  const parameters = toGeminiSchema(tool.parameters, { path, ...(onDrop === undefined ? {} : { onDrop }), ...(maxDepth === undefined ? {} : { maxDepth }) });
  if (parameters.type === undefined) parameters.type = 'OBJECT';
  if (parameters.type !== 'OBJECT') throw new ToolStreamError('unsupported-request', { target: 'gemini', field: `${path}.type`, detail: 'Gemini function parameters must describe an object' });
  const out: GeminiWire.FunctionDeclaration = { name: tool.name, parameters };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}
