/**
 * The options of `textToolCalls()` / {@link TextToolCallParser}, and what they make of the markers
 * to look for in visible text.
 *
 * @module
 */
import { aBoolean, anObject, checkOptions, oneOf, type OptionChecks } from '../internal/options';
import { DEEPSEEK, MISTRAL, PYTHON_TAG, TEXT_TOOL_CALL_SYNTAXES, THINK, TOOL_CALL, type TextToolCallSyntax } from './syntaxes';

/** Options of `textToolCalls()` (and `TextToolCallParser`). */
export interface TextToolCallsOptions {
  /** The syntaxes to lift (see {@link TextToolCallSyntax}). Default: all of them. */
  readonly syntaxes?: ReadonlyArray<TextToolCallSyntax>;
  /** Turn `<think>…</think>` (and Magistral's `[THINK]…[/THINK]` with `mistral`) into reasoning. Default `true`. */
  readonly thinkTags?: boolean;
  /** The text starts inside reasoning, up to `</think>` (templates that put `<think>` in the prompt, e.g. DeepSeek R1). Default `false`. */
  readonly startInReasoning?: boolean;
  /**
   * Tool names mapped to their argument schemas: a JSON Schema object (the tool's `parameters`) or
   * a Standard Schema validator that describes itself as JSON Schema (zod 4). Used to type the
   * parameter values of the XML syntaxes (Qwen3-Coder, GLM), which arrive as bare text.
   */
  readonly tools?: Readonly<Record<string, object>>;
}

/** The check of one syntax name. */
const aSyntax = /* @__PURE__ */ oneOf(TEXT_TOOL_CALL_SYNTAXES);

/** The checks of {@link TextToolCallsOptions}' keys. */
const TEXT_OPTION_CHECKS: OptionChecks = {
  syntaxes: (value) => {
    if (!Array.isArray(value)) return `an array of syntax names, each ${aSyntax('') as string}`;
    const wrong = value.find((name) => aSyntax(name) !== undefined) as unknown;
    return wrong === undefined ? undefined : `syntax names, each ${aSyntax('') as string} (not ${JSON.stringify(wrong)})`;
  },
  thinkTags: aBoolean,
  startInReasoning: aBoolean,
  tools: anObject,
};

/**
 * Check the options of `fn` (`textToolCalls` or `TextToolCallParser`) when it is made.
 *
 * @throws {ToolStreamError} `invalid-option` for a key it does not take (naming the closest one), an unknown syntax or a value of the wrong kind.
 */
export function checkTextOptions(fn: string, options: TextToolCallsOptions): void {
  checkOptions(fn, options, TEXT_OPTION_CHECKS);
}

/** The options resolved once per parser. */
export interface ParserSetup {
  /** The enabled syntaxes. */
  readonly enabled: ReadonlySet<TextToolCallSyntax>;
  /** The markers that open a block or reasoning in visible text (none is a prefix of another). */
  readonly textMarkers: readonly string[];
  /** Whether a message that starts with `{` may be a bare Llama call. */
  readonly bareJson: boolean;
  /** See `TextToolCallsOptions.startInReasoning`. */
  readonly startInReasoning: boolean;
}

/** Resolve the options. */
export function parserSetup(options: TextToolCallsOptions): ParserSetup {
  const enabled = new Set(options.syntaxes ?? TEXT_TOOL_CALL_SYNTAXES);
  const thinkTags = options.thinkTags ?? true;
  const markers: string[] = [];
  if (enabled.has('hermes') || enabled.has('qwen3-coder') || enabled.has('glm45')) markers.push(TOOL_CALL);
  if (enabled.has('mistral')) markers.push(MISTRAL.calls);
  if (enabled.has('llama3')) markers.push(PYTHON_TAG);
  if (enabled.has('deepseek')) markers.push(...DEEPSEEK.callsBegin, DEEPSEEK.callBegin);
  if (thinkTags) markers.push(THINK);
  if (thinkTags && enabled.has('mistral')) markers.push(MISTRAL.think);
  return { enabled, textMarkers: markers, bareJson: enabled.has('llama3'), startInReasoning: options.startInReasoning ?? false };
}
