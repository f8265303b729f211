/**
 * One tool as an OpenAI Chat Completions request's `tools[]` entry.
 *
 * @module
 */
import type { CustomToolFormat, ToolSpecInput } from '../toolSpec';
import type { ChatFunctionTool } from './request';

/** A custom (freeform) tool as a Chat Completions `tools[]` entry. */
export interface ChatCustomTool {
  /** Always `'custom'`. */
  type: 'custom';
  /** The tool. */
  custom: {
    /** The tool name. */
    name: string;
    /** What the tool does, for the model. */
    description?: string;
    /** What its input text must be (chat nests a grammar under `grammar`). */
    format?:
      | {
          /** Free text. */
          type: 'text';
        }
      | {
          /** Text in a grammar. */
          type: 'grammar';
          /** The grammar. */
          grammar: {
            /** How `definition` is written. */
            syntax: 'lark' | 'regex';
            /** The grammar itself. */
            definition: string;
          };
        };
  };
}

/** A format as chat writes it. */
function chatFormat(format: CustomToolFormat): NonNullable<ChatCustomTool['custom']['format']> {
  return format.type === 'text' ? { type: 'text' } : { type: 'grammar', grammar: { syntax: format.syntax, definition: format.definition } };
}

/** A custom tool: `{ type: 'custom', custom: { name, description, format } }`. */
export function chatCustomToolSpec(tool: ToolSpecInput, format: CustomToolFormat | undefined): ChatCustomTool {
  const custom: ChatCustomTool['custom'] = { name: tool.name };
  if (tool.description !== undefined) custom.description = tool.description;
  if (format !== undefined) custom.format = chatFormat(format);
  return { type: 'custom', custom };
}

/** `{ type: 'function', function: { name, description, parameters, strict? } }` (`strict` only when true). */
export function chatToolSpec(tool: ToolSpecInput): ChatFunctionTool {
  const fn: ChatFunctionTool['function'] = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  fn.parameters = tool.parameters;
  if (tool.strict) fn.strict = true;
  return { type: 'function', function: fn };
}
