/**
 * Type-level tests (tsc only): `toolSpecs()` writes values of the official SDKs' request types, and
 * `tool()` declares a tool once for specs, validation and execution.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { z } from 'zod';
import { customTool, type MessageFormat, runTools, tool, type ToolDeclaration, toolLoop, type ToolLoopRequest, toolSpecs } from 'rxjs-tool-calls/tools';
import { from } from 'rxjs';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

const getWeather = tool({ description: 'Weather in a city', schema: z.object({ city: z.string() }), execute: ({ city }) => city.length });
const declared = tool({ description: 'Asked of the user', schema: z.object({ question: z.string() }) });
const tools = { get_weather: getWeather, ask_user: declared };

// Each format's specs are the SDK's own tool types.
const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = toolSpecs(tools, 'openai-chat');
const chatFn: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = toolSpecs(tools, 'openai-chat');
const responses: OpenAI.Responses.FunctionTool[] = toolSpecs(tools, 'openai-responses');
const anthropic: Anthropic.Messages.Tool[] = toolSpecs(tools, 'anthropic');
void chat;
void chatFn;
void responses;
void anthropic;
// …and fit a request body.
declare const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[];
const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = { model: 'gpt-5', stream: true, messages, tools: toolSpecs(tools, 'openai-chat') };
const anthropicBody: Anthropic.MessageCreateParamsStreaming = { model: 'claude', max_tokens: 1024, stream: true, messages: [], tools: toolSpecs(tools, 'anthropic') };
void body;
void anthropicBody;
// Gemini: `tools: [{ functionDeclarations }]`.
const gemini = toolSpecs(tools, 'gemini');
const firstDeclaration: string | undefined = gemini[0]?.functionDeclarations[0]?.name;
void firstDeclaration;

// The formats toolSpecs writes are the formats toolLoop speaks.
assertType<Equal<MessageFormat, MessageFormat>>();
// @ts-expect-error cohere request tools are not written
toolSpecs(tools, 'cohere');

// A tool without execute is a declaration: fine for toolSpecs, refused by runTools / toolLoop.
const asDeclaration: ToolDeclaration<z.ZodObject<{ question: z.ZodString }>> = declared;
void asDeclaration;
// @ts-expect-error ask_user has no execute
runTools({ ask_user: declared });
runTools({ get_weather: getWeather });
// @ts-expect-error execute's argument is typed by the schema even with a description and a name
tool({ name: 'x', description: 'd', schema: z.object({ q: z.string() }), execute: ({ q }) => q * 2 });
// @ts-expect-error a description is a string
tool({ description: 3 });

// toolLoop's request receives the specs.
const request: ToolLoopRequest = (_messages, _step, context) => {
  const format: MessageFormat = context.format;
  void format;
  return from([JSON.stringify({ tools: context.tools })]);
};
toolLoop(request, { get_weather: getWeather });
// A two-argument request still fits.
toolLoop((_messages, step) => from([String(step)]), { get_weather: getWeather });

// Custom (freeform) tools: the OpenAI formats' lists then hold the SDKs' custom tool types too,
// the other formats a function (its one string parameter `input`).
const patchTool = customTool({ description: 'Apply a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: /.+/s' }, execute: (patch) => patch.length });
const withCustom = { get_weather: getWeather, apply_patch: patchTool };
const chatCustom: OpenAI.Chat.Completions.ChatCompletionTool[] = toolSpecs(withCustom, 'openai-chat');
const responsesCustom: Array<OpenAI.Responses.FunctionTool | OpenAI.Responses.CustomTool> = toolSpecs(withCustom, 'openai-responses');
const anthropicCustom: Anthropic.Messages.Tool[] = toolSpecs(withCustom, 'anthropic');
void [chatCustom, responsesCustom, anthropicCustom];
// @ts-expect-error a list that may hold a custom tool is not only function tools
const onlyFunctions: OpenAI.Chat.Completions.ChatCompletionFunctionTool[] = toolSpecs(withCustom, 'openai-chat');
void onlyFunctions;
// A custom tool's execute gets its text; its runs are typed by name.
runTools(withCustom)(from([])).subscribe((run) => {
  if (run.success && run.data.name === 'apply_patch') {
    const input: string = run.data.call.arguments;
    const output: number = run.data.output;
    void [input, output];
  }
});
