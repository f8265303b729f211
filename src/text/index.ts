/**
 * `rxjs-tool-calls/text`: tool calls that open models write inside their text (`<tool_call>…`,
 * `[TOOL_CALLS]…`, Llama's JSON, …), lifted into ordinary tool-call events while the text streams.
 *
 * @packageDocumentation
 */
export { textToolCalls, TEXT_TOOL_CALL_SYNTAXES, type TextToolCallsOptions, type TextToolCallSyntax } from './textToolCalls';
export { TextToolCallParser } from './textToolCallParser';
