/**
 * The tool-call syntaxes open models write into their text, and the exact token spellings of each
 * (taken from the models' chat templates and the vLLM / llama.cpp parsers).
 *
 * @module
 */

/** Every syntax `textToolCalls()` can lift, by name. */
export const TEXT_TOOL_CALL_SYNTAXES = ['hermes', 'qwen3-coder', 'mistral', 'llama3', 'deepseek', 'glm45'] as const;

/**
 * One tool-call syntax written as text:
 *
 * - `hermes`: Hermes 2/3, Qwen 2.5, Qwen 3: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`.
 * - `qwen3-coder`: `<tool_call><function=NAME><parameter=KEY>value</parameter>…</function></tool_call>`.
 * - `mistral`: `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]` and `[TOOL_CALLS]NAME[ARGS]{…}`
 *   (also `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` and `[TOOL_CALLS]NAME{…}`); Magistral's `[THINK]…[/THINK]`.
 * - `llama3`: Llama 3.1 – 3.3: `<|python_tag|>{"name": …, "parameters": {…}}` and the same JSON as the
 *   whole message (several separated by `;`).
 * - `deepseek`: DeepSeek V3 / R1 `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME` +
 *   a fenced JSON block, and the V3.1 form `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>`.
 * - `glm45`: GLM 4.5 / 4.6: `<tool_call>NAME\n<arg_key>k</arg_key>\n<arg_value>v</arg_value>…</tool_call>`.
 */
export type TextToolCallSyntax = (typeof TEXT_TOOL_CALL_SYNTAXES)[number];

/** Opens a Hermes, Qwen3-Coder or GLM call. */
export const TOOL_CALL = '<tool_call>';
/** Closes a Hermes, Qwen3-Coder or GLM call. */
export const TOOL_CALL_END = '</tool_call>';

/** Qwen3-Coder's function and parameter tags. */
export const QWEN = { function: '<function=', functionEnd: '</function>', parameter: '<parameter=', parameterEnd: '</parameter>' } as const;

/** GLM 4.5's argument tags. */
export const GLM = { key: '<arg_key>', keyEnd: '</arg_key>', value: '<arg_value>', valueEnd: '</arg_value>' } as const;

/** Mistral's control tokens (v3 – v13 tokenizers) and Magistral's reasoning tags. */
export const MISTRAL = { calls: '[TOOL_CALLS]', args: '[ARGS]', callId: '[CALL_ID]', think: '[THINK]', thinkEnd: '[/THINK]' } as const;

/** Llama 3.1's tag before a tool call. */
export const PYTHON_TAG = '<|python_tag|>';

/** DeepSeek's tool tokens (full-width bars and U+2581 "▁" in place of spaces). */
export const DEEPSEEK = {
  /** The official spelling first; llama.cpp has seen models write the others. */
  callsBegin: ['<｜tool▁calls▁begin｜>', '<｜tool_calls_begin｜>', '<｜tool calls begin｜>'],
  callBegin: '<｜tool▁call▁begin｜>',
  sep: '<｜tool▁sep｜>',
  callEnd: '<｜tool▁call▁end｜>',
  callsEnd: '<｜tool▁calls▁end｜>',
} as const;

/** The reasoning tags of Qwen 3, DeepSeek R1, GLM and most open reasoning models. */
export const THINK = '<think>';
/** Closes {@link THINK}. */
export const THINK_END = '</think>';
