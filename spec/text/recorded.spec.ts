/**
 * Streams of our own, written the way Ollama (`/v1/chat/completions`), vLLM without
 * `--tool-call-parser` and llama.cpp's `llama-server` (without `--jinja`) send a model's text-written
 * tool calls: one token (or a few) per SSE chunk, each server's own chunk shape and finish. Read as
 * bytes through `readStreamEvents()` + `textToolCalls()` + `toolCalls()`, under every chunking.
 */
import { from } from 'rxjs';
import { readStreamEvents } from 'rxjs-tool-calls';
import type { TextToolCallsOptions } from 'rxjs-tool-calls/text';
import { chunkings } from '../helpers/chunking';
import { callsOf, ollama, runEvents, sse } from './helpers';

const encoder = new TextEncoder();

/** vLLM's OpenAI server: a first delta with `role` and empty content, `logprobs: null`, `stop_reason`, a usage chunk, n choices interleaved. */
function vllm(model: string, perChoice: ReadonlyArray<readonly string[]>): string {
  const base = { id: 'chatcmpl-7c1f0b9e2a4d4f3c9d0e1a2b3c4d5e6f', object: 'chat.completion.chunk', created: 1733162241, model };
  const chunks: string[] = perChoice.map((_, index) => sse({ ...base, choices: [{ index, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }] }));
  const longest = Math.max(...perChoice.map((t) => t.length));
  for (let i = 0; i < longest; i++) {
    perChoice.forEach((tokens, index) => {
      const content = tokens[i];
      if (content !== undefined) chunks.push(sse({ ...base, choices: [{ index, delta: { content }, logprobs: null, finish_reason: null }] }));
    });
  }
  perChoice.forEach((_, index) => chunks.push(sse({ ...base, choices: [{ index, delta: { content: '' }, logprobs: null, finish_reason: 'stop', stop_reason: null }] })));
  chunks.push(sse({ ...base, choices: [], usage: { prompt_tokens: 312, total_tokens: 401, completion_tokens: 89 } }));
  return `${chunks.join('')}data: [DONE]\n\n`;
}

/** llama.cpp's `llama-server`: `content: null` on the first delta, an empty delta with the finish, usage and `timings` on it. */
function llamaCpp(model: string, tokens: readonly string[]): string {
  const base = { created: 1733000000, id: 'chatcmpl-Xq3bT0c8mYw2', model, system_fingerprint: 'b4702-4d0b7bb1', object: 'chat.completion.chunk' };
  const chunks = [sse({ choices: [{ finish_reason: null, index: 0, delta: { role: 'assistant', content: null } }], ...base })];
  for (const content of tokens) chunks.push(sse({ choices: [{ finish_reason: null, index: 0, delta: { content } }], ...base }));
  const timings = { prompt_n: 52, prompt_ms: 81.2, predicted_n: tokens.length, predicted_ms: 402.5 };
  chunks.push(sse({ choices: [{ finish_reason: 'stop', index: 0, delta: {} }], ...base, usage: { completion_tokens: tokens.length, prompt_tokens: 52, total_tokens: 52 + tokens.length }, timings }));
  return `${chunks.join('')}data: [DONE]\n\n`;
}

interface Recorded {
  readonly name: string;
  readonly wire: string;
  readonly options?: TextToolCallsOptions;
  readonly visible: string;
  readonly reasoning: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }>;
}

const RECORDED: readonly Recorded[] = [
  {
    name: 'Ollama /v1, qwen2.5 (Hermes)',
    wire: ollama('qwen2.5:7b', [
      'I',
      "'ll",
      ' check',
      '.\n',
      '<tool_call>',
      '\n',
      '{"',
      'name',
      '":',
      ' "',
      'get',
      '_weather',
      '",',
      ' "',
      'arguments',
      '":',
      ' {"',
      'city',
      '":',
      ' "',
      'Paris',
      '"}}\n',
      '</tool_call>',
      '\n',
      '<tool_call>',
      '\n',
      '{"',
      'name',
      '":',
      ' "',
      'get',
      '_time',
      '",',
      ' "',
      'arguments',
      '":',
      ' {"',
      'tz',
      '":',
      ' "',
      'Europe',
      '/',
      'Paris',
      '"}}\n',
      '</tool_call>',
    ]),
    visible: "I'll check.\n",
    reasoning: '',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'get_time', arguments: { tz: 'Europe/Paris' } },
    ],
  },
  {
    name: 'Ollama /v1, llama3.2 (bare JSON)',
    wire: ollama('llama3.2:3b', ['{"', 'name', '":', ' "', 'get', '_weather', '",', ' "', 'parameters', '":', ' {"', 'city', '":', ' "', 'San', ' Francisco', '"}}']),
    visible: '',
    reasoning: '',
    calls: [{ name: 'get_weather', arguments: { city: 'San Francisco' } }],
  },
  {
    name: 'vLLM without a tool parser, Qwen3-Coder, n=2 (typed by the tools)',
    options: { tools: { forecast: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } } },
    wire: vllm('Qwen/Qwen3-Coder-30B-A3B-Instruct', [
      [
        '<tool_call>',
        '\n',
        '<function=',
        'forecast',
        '>\n',
        '<parameter=',
        'city',
        '>\n',
        'Lis',
        'bon',
        '\n',
        '</parameter>',
        '\n',
        '<parameter=',
        'days',
        '>\n',
        '5',
        '\n',
        '</parameter>',
        '\n',
        '</function>',
        '\n',
        '</tool_call>',
      ],
      ['Sure', ' thing', '.', '\n', '<tool_call>', '\n', '<function=', 'forecast', '>\n', '<parameter=', 'city', '>\n', 'Porto', '\n', '</parameter>', '\n', '</function>', '\n', '</tool_call>'],
    ]),
    visible: 'Sure thing.\n',
    reasoning: '',
    // choice 1's call closes first (each call's result comes at its own closing tag)
    calls: [
      { name: 'forecast', arguments: { city: 'Porto' } },
      { name: 'forecast', arguments: { city: 'Lisbon', days: 5 } },
    ],
  },
  {
    name: 'vLLM without a tool parser, DeepSeek V3.1',
    wire: vllm('deepseek-ai/DeepSeek-V3.1', [
      ['<｜tool▁calls▁begin｜>', '<｜tool▁call▁begin｜>', 'get', '_weather', '<｜tool▁sep｜>', '{"', 'city', '":', ' "', 'Paris', '"}', '<｜tool▁call▁end｜>', '<｜tool▁calls▁end｜>'],
    ]),
    visible: '',
    reasoning: '',
    calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    name: 'llama.cpp, DeepSeek R1 distill (<think> opened by the template)',
    options: { startInReasoning: true },
    wire: llamaCpp('DeepSeek-R1-Distill-Qwen-7B-Q4_K_M.gguf', [
      'Okay',
      ',',
      ' the',
      ' user',
      ' wants',
      ' weather',
      '.\n',
      '</think>',
      '\n\n',
      '<｜tool▁calls▁begin｜>',
      '<｜tool▁call▁begin｜>',
      'function',
      '<｜tool▁sep｜>',
      'get',
      '_weather',
      '\n',
      '```',
      'json',
      '\n',
      '{"',
      'city',
      '":',
      ' "',
      'Paris',
      '"}',
      '\n',
      '```',
      '<｜tool▁call▁end｜>',
      '<｜tool▁calls▁end｜>',
    ]),
    visible: '',
    reasoning: 'Okay, the user wants weather.\n',
    calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    name: 'llama.cpp, GLM 4.5 Air',
    wire: llamaCpp('GLM-4.5-Air-Q4_K_M.gguf', [
      '<think>',
      'Need',
      ' two',
      ' calls',
      '.',
      '</think>',
      '\n',
      '<tool_call>',
      'get',
      '_weather',
      '\n',
      '<arg_key>',
      'city',
      '</arg_key>',
      '\n',
      '<arg_value>',
      'Be',
      'ijing',
      '</arg_value>',
      '\n',
      '</tool_call>',
      '<tool_call>',
      'get',
      '_weather',
      '\n',
      '<arg_key>',
      'city',
      '</arg_key>',
      '\n',
      '<arg_value>',
      'Shang',
      'hai',
      '</arg_value>',
      '\n',
      '</tool_call>',
    ]),
    visible: '',
    reasoning: 'Need two calls.',
    calls: [
      { name: 'get_weather', arguments: { city: 'Beijing' } },
      { name: 'get_weather', arguments: { city: 'Shanghai' } },
    ],
  },
  {
    name: 'vLLM without a tool parser, Mistral (control tokens kept)',
    wire: vllm('mistralai/Mistral-Small-3.2-24B-Instruct-2506', [
      ['[TOOL_CALLS]', 'get', '_weather', '[ARGS]', '{"', 'city', '":', ' "', 'Paris', '"}', '[TOOL_CALLS]', 'get', '_time', '[ARGS]', '{}'],
    ]),
    visible: '',
    reasoning: '',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'get_time', arguments: {} },
    ],
  },
];

describe.each(RECORDED.map((r) => [r.name, r] as const))('%s', (_name, recorded) => {
  const bytes = encoder.encode(recorded.wire);
  it.each(chunkings(bytes))('lifts the calls (%s)', (_chunking, chunks) => {
    const run = runEvents(from(chunks).pipe(readStreamEvents()), recorded.options);
    expect(run.error).toBeUndefined();
    expect(callsOf(run)).toEqual(recorded.calls);
    expect([run.visible, run.reasoning]).toEqual([recorded.visible, recorded.reasoning]);
    expect(run.finishes.every((f) => f === 'tool-calls')).toBe(true);
  });
});
