/**
 * One tool as an OpenAI Responses request's `tools[]` entry.
 *
 * @module
 */
import type { CustomToolFormat, ToolSpecInput } from '../toolSpec';
import type { ResponsesFunctionTool } from './request';

/** A custom (freeform) tool as a Responses `tools[]` entry. */
export interface ResponsesCustomTool {
  /** Always `'custom'`. */
  type: 'custom';
  /** The tool name. */
  name: string;
  /** What the tool does, for the model. */
  description?: string;
  /** What its input text must be. */
  format?:
    | {
        /** Free text. */
        type: 'text';
      }
    | {
        /** Text in a grammar. */
        type: 'grammar';
        /** How `definition` is written. */
        syntax: 'lark' | 'regex';
        /** The grammar itself. */
        definition: string;
      };
}

/** A custom tool: `{ type: 'custom', name, description, format }`. */
export function responsesCustomToolSpec(tool: ToolSpecInput, format: CustomToolFormat | undefined): ResponsesCustomTool {
  const out: ResponsesCustomTool = { type: 'custom', name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  if (format !== undefined) out.format = format.type === 'text' ? { type: 'text' } : { type: 'grammar', syntax: format.syntax, definition: format.definition };
  return out;
}

/** `{ type: 'function', name, description, parameters, strict }` (`strict` always written: the API's default is `true`). */
export function responsesToolSpec(tool: ToolSpecInput): ResponsesFunctionTool {
  const out: ResponsesFunctionTool = { type: 'function', name: tool.name, parameters: { ...tool.parameters }, strict: tool.strict };
  if (tool.description !== undefined) out.description = tool.description;
  return out;
}
