/**
 * `rxjs-tool-calls/tools`: tools defined once and run — `tool()`, the specs to send
 * (`toolSpecs()`, with the Gemini schema conversion `toGeminiSchema()`), running a step's calls
 * (`runTools()`), the whole loop (`toolLoop()`), and the message builders of each wire format.
 *
 * @packageDocumentation
 */

// ---- Defining and running tools ------------------------------------------------------------------
export {
  customTool,
  tool,
  type AnyTool,
  type CustomToolDeclaration,
  type CustomToolDefinition,
  type CustomToolFormat,
  type ToolDeclaration,
  type InferToolRun,
  type ToolContext,
  type ToolDefinition,
  type ToolRun,
  type ToolRunResult,
  type ToolList,
  type ToolSet,
} from './types';
export { runTools, type RunToolsOptions } from './runTools';
export { loopEvents } from './loopEvents';
export { toolLoop, type ToolLoopOptions, type ToolLoopRequest, type ToolLoopRequestContext } from './toolLoop';
export type {
  LoopMessage,
  ToolApprovalDecision,
  ToolApprovalRequest,
  ToolLoopApproval,
  ToolLoopCheckpoint,
  ToolLoopDone,
  ToolLoopEvent,
  ToolLoopItem,
  ToolLoopPaused,
  ToolLoopSteer,
  ToolLoopStepEnd,
  ToolLoopStepStart,
  ToolLoopToolCall,
  ToolLoopToolProgress,
  ToolLoopToolResult,
} from './loopItems';
export { mcpTools, type McpClient, type McpTool, type McpToolsOptions } from './mcpTools';
export { answerRealtimeCalls, type AnswerRealtimeCallsOptions } from './answerRealtimeCalls';

// ---- The request's tool definitions, per format -------------------------------------------------
export { toolSpecs, type ToolDeclarations, type ToolSpecs, type ToolSpecsOptions } from './toolSpecs';
export { toGeminiSchema, type GeminiSchemaDrop, type GeminiSchemaOptions } from './specs/geminiSchema';

// ---- A step's calls and results as the next request's messages, per format -----------------------
export { assistantTextMessage, toolMessages, type MessageFormat, type ToolMessagesOptions, type ToolStep, type TurnPiece, type WireMessage } from './messages';
export { TurnRecorder } from './turnRecorder';

// ---- The wire types of each format (messages, tools, requests), shared with rxjs-tool-calls/gateway --
export type * as OpenAIChatWire from '../providers/openaiChat/wire';
export type * as ResponsesWire from '../providers/openaiResponses/wire';
export type * as AnthropicWire from '../providers/anthropic/wire';
export type * as GeminiWire from '../providers/gemini/wire';
export type * as GeminiInteractionsWire from '../providers/geminiInteractions/wire';
export type * as ConverseWire from '../providers/bedrockConverse/wire';
export type * as OllamaWire from '../providers/ollama/wire';
export type * as RealtimeWire from '../providers/openaiRealtime/wire';
