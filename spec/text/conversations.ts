/**
 * One conversation per syntax, written the way the model writes it (text, reasoning, several calls,
 * awkward characters in the arguments), with what `textToolCalls()` + `toolCalls()` must make of it.
 */
import type { TextToolCallsOptions, TextToolCallSyntax } from 'rxjs-tool-calls/text';

export interface Conversation {
  readonly syntax: TextToolCallSyntax;
  /** The model's whole output, as text. */
  readonly text: string;
  readonly options?: TextToolCallsOptions;
  /** The visible text that must remain. */
  readonly visible: string;
  readonly reasoning: string;
  readonly calls: ReadonlyArray<{ readonly name: string; readonly arguments: unknown }>;
}

const tricky = { q: 'a "quoted" <tag> [x] {y} ```fence``` \\ back', emoji: 'Paris 🗼 café', list: [1, [2, { deep: null }], true] };
const trickyJson = JSON.stringify(tricky);

/** JSON Schemas of the tools (the `parameters` a request would send). */
export const SCHEMAS = {
  forecast: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' }, hours: { type: 'array', items: { type: 'number' } } } },
  search: { type: 'object', properties: { query: { type: 'string' }, filters: { type: 'object' } } },
} as const;

export const CONVERSATIONS: readonly Conversation[] = [
  {
    syntax: 'hermes',
    text: `<think>\nThe user wants the weather.\n</think>\n\nLet me check both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "c"}}\n</tool_call>\n<tool_call>\n{"name": "search", "arguments": ${trickyJson}}\n</tool_call>\n<tool_call>\n{"arguments": {"n": 3}, "name": "late_name"}\n</tool_call>`,
    visible: 'Let me check both.\n',
    reasoning: '\nThe user wants the weather.\n',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris', unit: 'c' } },
      { name: 'search', arguments: tricky },
      { name: 'late_name', arguments: { n: 3 } },
    ],
  },
  {
    syntax: 'qwen3-coder',
    options: { tools: SCHEMAS },
    text: `I'll look that up.\n<tool_call>\n<function=forecast>\n<parameter=city>\nSão Paulo <b>&</b> "Rio"\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=metric>\ntrue\n</parameter>\n<parameter=hours>\n[6, 12.5, 18]\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=search>\n<parameter=query>\nline one\nline two\n\n</parameter>\n<parameter=filters>\n{"lang": "pt"}\n</parameter>\n</function>\n</tool_call>`,
    visible: "I'll look that up.\n",
    reasoning: '',
    calls: [
      { name: 'forecast', arguments: { city: 'São Paulo <b>&</b> "Rio"', days: 3, metric: true, hours: [6, 12.5, 18] } },
      { name: 'search', arguments: { query: 'line one\nline two\n', filters: { lang: 'pt' } } },
    ],
  },
  {
    syntax: 'mistral',
    text: `[THINK]Two cities.[/THINK]Checking.[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Paris"}, "id": "abc123XYZ"}, {"name": "search", "arguments": ${trickyJson}, "id": "def456UVW"}]`,
    visible: 'Checking.',
    reasoning: 'Two cities.',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'search', arguments: tricky },
    ],
  },
  {
    syntax: 'mistral',
    text: `Checking.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}[TOOL_CALLS]search[CALL_ID]a1b2c3d4e[ARGS]${trickyJson}`,
    visible: 'Checking.',
    reasoning: '',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'search', arguments: tricky },
    ],
  },
  {
    syntax: 'llama3',
    text: `<|python_tag|>{"name": "search", "parameters": ${trickyJson}}`,
    visible: '',
    reasoning: '',
    calls: [{ name: 'search', arguments: tricky }],
  },
  {
    syntax: 'llama3',
    text: `\n{"type": "function", "name": "get_weather", "parameters": {"city": "Paris"}}; {"parameters": ${trickyJson}, "name": "search"}`,
    visible: '',
    reasoning: '',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'search', arguments: tricky },
    ],
  },
  {
    syntax: 'deepseek',
    text: `<think>I should call two tools.</think>\n\nSure.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n\`\`\`json\n{"city": "Paris"}\n\`\`\`<｜tool▁call▁end｜>\n<｜tool▁call▁begin｜>function<｜tool▁sep｜>search\n\`\`\`json\n${trickyJson}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    visible: 'Sure.',
    reasoning: 'I should call two tools.',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'search', arguments: tricky },
    ],
  },
  {
    syntax: 'deepseek',
    text: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁call▁begin｜>search<｜tool▁sep｜>${trickyJson}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    visible: '',
    reasoning: '',
    calls: [
      { name: 'get_weather', arguments: { city: 'Paris' } },
      { name: 'search', arguments: tricky },
    ],
  },
  {
    syntax: 'glm45',
    text: `<think>Need a forecast.</think>\nOn it.\n<tool_call>forecast\n<arg_key>city</arg_key>\n<arg_value>Zürich <3 [CH]</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n<tool_call>search\n<arg_key>query</arg_key>\n<arg_value>12 apples</arg_value>\n<arg_key>filters</arg_key>\n<arg_value>{"lang": "de", "n": [1, 2]}</arg_value>\n</tool_call>`,
    visible: 'On it.\n',
    reasoning: 'Need a forecast.',
    calls: [
      { name: 'forecast', arguments: { city: 'Zürich <3 [CH]', days: 2 } },
      { name: 'search', arguments: { query: '12 apples', filters: { lang: 'de', n: [1, 2] } } },
    ],
  },
];
