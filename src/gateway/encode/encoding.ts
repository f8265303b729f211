/**
 * What every wire encoder shares: the SSE text it writes, the resolved view of a tool call it is
 * handed, and the {@link WireEncoder} interface the `encode…()` operators drive.
 *
 * An encoder knows one wire format and nothing about identity: which call a fragment belongs to is
 * decided before it is called (by the same tracker the readers use), so it writes resolved calls only.
 *
 * @module
 */
import type { FinishReason, MetadataEvent, ProviderMetadata, ProviderName, ProviderToolEvent, ReasoningPart, ToolApprovalRequestEvent, ToolResultEvent, UsageEvent } from '../../events';
import type { ProviderErrorInfo } from '../../errors';

/** Collects SSE text; {@link SseWriter.take} hands it over and starts again. */
export class SseWriter {
  private out = '';

  /** Append one event whose data is `payload` as JSON (one `data:` line), with an `event:` line when `name` is given. */
  json(payload: unknown, name?: string): void {
    // JSON.stringify escapes line breaks, so the payload is always one `data:` line.
    this.out += name === undefined ? `data: ${JSON.stringify(payload)}\n\n` : `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
  }

  /** Append one event whose data is already JSON text (no line breaks), e.g. a prebuilt chunk; with an `event:` line when `name` is given. */
  data(data: string, name?: string): void {
    this.out += name === undefined ? `data: ${data}\n\n` : `event: ${name}\ndata: ${data}\n\n`;
  }

  /** Append SSE text as it is (whole events, already framed: a hot path's prebuilt prefix and suffix). */
  raw(text: string): void {
    this.out += text;
  }

  /** Everything written since the last call (`''` when nothing was). */
  take(): string {
    const out = this.out;
    this.out = '';
    return out;
  }
}

/** One tool call as an encoder sees it: identity already resolved, argument text so far. */
export interface EncodedCall {
  /** Unique within the stream, in order of first sight. */
  readonly seq: number;
  /** The call's id: the wire's (de-duplicated when the wire repeated one), or a generated one. */
  readonly id: string;
  /** The id exactly as the source wire sent it; `undefined` when `id` was generated. */
  readonly wireId: string | undefined;
  /** The tool name; `''` until the source sends it. */
  readonly name: string;
  /** The choice the call belongs to. */
  readonly choice: number;
  /** All argument text so far (what a reader of the source has). */
  readonly rawArguments: string;
  /** Provider extras of the source (`thoughtSignature`, Responses `itemId`, Anthropic block `type` and `caller`, …). */
  readonly metadata: ProviderMetadata | undefined;
  /** `'custom'` for a custom (freeform) tool's call (its text is not JSON); see {@link WireEncoder.customCalls}. */
  readonly kind: 'custom' | undefined;
}

/**
 * How a reader of the source judges a closed call: an encoder writes it so that a reader of the
 * encoded stream judges it the same way, where the format allows.
 */
export type CallOutcome =
  | {
      /** The arguments parse (or were repaired): the call can be run. */
      readonly status: 'complete';
      /** The parsed arguments. */
      readonly value: unknown;
      /** How a reader repaired the text (rules `unambiguous-repair`, `glued-calls`), when it did. */
      readonly repaired?: 'repeated' | 'cumulative' | 'split';
    }
  | {
      /** Closed but not runnable as it stands (`malformed-arguments`, `missing-name`): written as it is. */
      readonly status: 'failed';
      /** The reader's error message (`Malformed arguments of get_weather: …`). */
      readonly message: string;
    }
  | {
      /** Cut before it was complete (`incomplete`, `arguments-too-large`): written without the format's end of a call. */
      readonly status: 'incomplete';
    };

/** How a reader judges a closed call, computed on demand. */
export interface CallJudge {
  /** Whether a reader reports the call cut off (`incomplete`); cheap unless the call's finish could have cut it. */
  incomplete(): boolean;
  /** The full judgement (parses the arguments). */
  outcome(): CallOutcome;
}

/**
 * One wire format's writer, driven by an `encode…()` operator. Methods append SSE text; the
 * operator {@link WireEncoder.take}s it after each source event.
 */
export interface WireEncoder {
  /** The wire format written. */
  readonly provider: ProviderName;
  /** `'all'` when the format carries several choices (chat, Gemini candidates), else the one choice it encodes. */
  readonly choices: 'all' | number;
  /**
   * `true` when the format restates a call's whole arguments at its end (Responses `.done`, Gemini
   * whole parts), so arguments that a `replace` contradicts can still be set right; `false` for
   * append-only formats (chat, Anthropic).
   */
  readonly restatesArguments: boolean;
  /**
   * `true` when the format's clients read a call's argument text exactly as written, with no repair
   * (AG-UI's `JSON.parse` of the concatenated `TOOL_CALL_ARGS`): a call a reader would repair is
   * written as its repaired text (copies of one document once, cumulative resends as their last).
   */
  readonly strictArguments?: boolean;
  /**
   * `true` when the format writes custom (freeform) tools' calls as such (OpenAI chat `type:
   * "custom"`, Responses `custom_tool_call`). Otherwise the driver hands a custom call over as the
   * JSON of the function `toolSpecs()` declares for it, `{"input": text}`.
   */
  readonly customCalls?: boolean;
  /** Response metadata of the source (id, model, provider). */
  metadata(event: MetadataEvent): void;
  /** Visible text of a choice (`''` only with a `signature`: Gemini's signature of a text part). */
  text(choice: number, text: string, signature: string | undefined): void;
  /** Reasoning text of a choice (may be `''` with a `signature`). */
  reasoning(choice: number, text: string, signature: string | undefined): void;
  /**
   * A reasoning part of a choice closed; its text and signature came through `reasoning` before
   * (a redacted or encrypted-only part has none). The format writes what it can carry of it
   * (Anthropic `redacted_thinking` blocks, Responses reasoning items) and ends the part.
   */
  reasoningEnd(choice: number, part: ReasoningPart): void;
  /**
   * A tool the provider ran (`provider-tool`): a target that can write it (the same format, from the
   * event's `raw` object) does; absent, it is dropped.
   */
  providerTool?(event: ProviderToolEvent): void;
  /**
   * A fragment of a call: `append` is the text to add to what this encoder already wrote for the
   * call (`''` when only the call itself, its name or its metadata is new).
   */
  toolCallDelta(call: EncodedCall, append: string): void;
  /**
   * The call is closed; every one of its fragments was handed over before. `judge` says how a
   * reader judges it, computed only when asked (it may parse the arguments).
   */
  toolCallEnd(call: EncodedCall, judge: CallJudge): void;
  /**
   * What a tool returned (`tool-result`), with the call it names (`undefined` when no call of that
   * id was written): a format that carries results writes it; absent, it is dropped.
   */
  toolResult?(event: ToolResultEvent, call: EncodedCall | undefined): void;
  /** An approval asked for before a call runs (`tool-approval-request`), with its call; absent, it is dropped. */
  toolApproval?(event: ToolApprovalRequestEvent, call: EncodedCall | undefined): void;
  /** A choice finished (after its calls were ended). */
  finish(choice: number, reason: FinishReason, rawReason: string): void;
  /** Token usage of the source (the last one is the most complete). */
  usage(event: UsageEvent): void;
  /** The source ended cleanly: write the format's end (terminator, final usage, …). */
  end(): void;
  /** The source failed with a provider error: write the format's own error; nothing follows. */
  error(error: ProviderErrorInfo): void;
  /** The SSE text written since the last call. */
  take(): string;
}

/** The response's model and id, options of every `encode…()` operator (besides `EncodeOptions`, the options every encoder's driver reads). */
export interface EncoderOptions {
  /** The model name to write. Default: the source's (its `metadata` event), else `'unknown'`. */
  readonly model?: string;
  /** The response / message id to write. Default: the source's response id, else a generated one. */
  readonly id?: string;
}

/** A random tag of about 52 bits, unlikely to collide with another's (for generated ids; no process-wide counter). */
export function randomTag(): string {
  return Math.floor(Math.random() * 2 ** 52).toString(36);
}

/** The response-level facts an encoder writes, fixed the first time they are needed. */
export class ResponseIdentity {
  private responseId: string | undefined;
  private modelName: string | undefined;
  private sourceId: string | undefined;
  private sourceModel: string | undefined;

  /**
   * @param options The caller's `id` and `model` (they win over the source's).
   * @param idPrefix The prefix of a generated id (`chatcmpl-`, `msg_`, `resp_`).
   */
  constructor(
    private readonly options: EncoderOptions,
    private readonly idPrefix: string,
  ) {}

  /** Remember the source's id and model (first sight wins). */
  metadata(event: MetadataEvent): void {
    this.sourceId ??= event.responseId;
    this.sourceModel ??= event.model;
  }

  /** The response id: the option, else the source's, else generated. */
  get id(): string {
    return (this.responseId ??= this.options.id ?? this.sourceId ?? `${this.idPrefix}${randomTag()}`);
  }

  /** The model: the option, else the source's, else `'unknown'`. */
  get model(): string {
    return (this.modelName ??= this.options.model ?? this.sourceModel ?? 'unknown');
  }
}

/** `total` when known, else `input + output` when both are known. */
export function totalOf(usage: UsageEvent): number | undefined {
  if (usage.totalTokens !== undefined) return usage.totalTokens;
  return usage.inputTokens !== undefined && usage.outputTokens !== undefined ? usage.inputTokens + usage.outputTokens : undefined;
}
