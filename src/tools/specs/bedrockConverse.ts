/**
 * One tool as a Converse request's `toolConfig.tools[]` entry.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type * as ConverseWire from '../../providers/bedrockConverse/wire';
import type { ToolSpecInput } from './shared';

/** `{ toolSpec: { name, description, inputSchema: { json } } }`; the schema must describe an object (`unsupported-request` otherwise). */
export function converseToolSpec(tool: ToolSpecInput): ConverseWire.Tool {
  const type = tool.parameters['type'];
  if (type !== undefined && type !== 'object')
    throw new ToolStreamError('unsupported-request', { target: 'bedrock-converse', field: `${tool.name}.inputSchema.json.type`, detail: 'Converse tool input schemas must describe an object' });
  const out: ConverseWire.Tool = { toolSpec: { name: tool.name, inputSchema: { json: { ...tool.parameters, type: 'object' } } } };
  if (tool.description !== undefined) out.toolSpec.description = tool.description;
  return out;
}
