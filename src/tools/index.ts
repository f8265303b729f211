/**
 * `rxjs-tool-calls/tools`: tools defined once and run — `tool()`, the specs to send
 * (`toolSpecs()`), running a step's calls (`runTools()`), the whole loop (`toolLoop()`), and the
 * message builders of each wire format.
 *
 * @packageDocumentation
 */

// ---- Running tools -----------------------------------------------------------------------------
export {
  customTool,
  tool,
  type AnyTool,
  type CustomToolDeclaration,
  type CustomToolDefinition,
  type CustomToolFormat,
  type CustomToolInput,
  type ToolDeclaration,
  type InferToolRun,
  type ToolArgs,
  type ToolArgsOf,
  type ToolContext,
  type ToolDefinition,
  type ToolOutputOf,
  type ToolReturn,
  type ToolRun,
  type ToolRunResult,
  type ToolList,
  type NamedAs,
  type ToolSet,
} from './types';
export { runTools, type RunToolsOptions } from './runTools';
export { toolLoop, type ToolLoopOptions, type ToolLoopRequest, type ToolLoopRequestContext } from './toolLoop';
export { toolSpecs, type HasCustomTool, type ToolDeclarations, type ToolSpecFormat, type ToolSpecs, type ToolSpecsByFormat, type ToolSpecsOptions } from './toolSpecs';
export type { LoopMessage, ToolLoopDone, ToolLoopEvent, ToolLoopItem, ToolLoopStepEnd, ToolLoopStepStart, ToolLoopToolCall, ToolLoopToolResult } from './loopItems';
export { assistantTextMessage, toolMessages, type MessageFormat, type ToolMessagesOptions, type ToolStep, type TurnPiece, type WireMessage } from './messages';
export type { OpenAIChatAssistantMessage, OpenAIChatToolMessage } from './messages/openaiChat';
export type {
  ResponsesAssistantMessage,
  ResponsesCustomToolCall,
  ResponsesCustomToolCallOutput,
  ResponsesFunctionCall,
  ResponsesFunctionCallOutput,
  ResponsesItem,
  ResponsesReasoningItem,
} from './messages/openaiResponses';
export type { AnthropicAssistantBlock, AnthropicAssistantMessage, AnthropicToolResultBlock, AnthropicToolResultMessage } from './messages/anthropic';
export type { GeminiModelContent, GeminiModelPart, GeminiResponsePart, GeminiToolContent } from './messages/gemini';
export type { ConverseAssistantBlock, ConverseAssistantMessage, ConverseToolResultBlock, ConverseToolResultMessage } from './messages/bedrockConverse';
export type { OllamaAssistantMessage, OllamaToolMessage } from './messages/ollama';

// ---- Tool loops: a step's turn in stream order, for the message builders ----------------------
export { TurnRecorder } from './turnRecorder';
export { toolJsonSchema } from './toolSpecs';
export { allowsStrict } from '../providers/toolSpec';
export type { CallView, MessageBuilder } from './messages/shared';
export type { ChatCustomTool } from '../providers/openaiChat/toolSpec';
export type { ResponsesCustomTool } from '../providers/openaiResponses/toolSpec';
