/**
 * One tool as an Anthropic Messages request's `tools[]` entry.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type * as AnthropicWire from '../../providers/anthropic/wire';
import type { ToolSpecInput } from './shared';

/**
 * `{ name, description, input_schema, eager_input_streaming }`; the schema must describe an object
 * (`unsupported-request` otherwise). `eager`: fine-grained tool streaming (the input streams live,
 * unbuffered and unvalidated), as the AI SDK's Anthropic provider sends by default.
 */
export function anthropicToolSpec(tool: ToolSpecInput, eager: boolean): AnthropicWire.Tool {
  const type = tool.parameters['type'];
  if (type !== undefined && type !== 'object')
    throw new ToolStreamError('unsupported-request', { target: 'anthropic', field: `${tool.name}.input_schema.type`, detail: 'Anthropic tool input schemas must describe an object' });
  const out: AnthropicWire.Tool = { name: tool.name, input_schema: { ...tool.parameters, type: 'object' } };
  if (tool.description !== undefined) out.description = tool.description;
  if (tool.deferLoading === true) out.defer_loading = true;
  if (eager) out.eager_input_streaming = true;
  return out;
}
