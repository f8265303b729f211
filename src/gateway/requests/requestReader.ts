/**
 * Reading an untrusted request body field by field for the request translators: every value is
 * checked before it is used, and anything that cannot be translated throws `unsupported-request`
 * naming its JSON path (`messages[2].content[0].type`).
 *
 * Against hostile bodies: names are looked up in `Map`s / `Set`s only (a role or type named
 * `constructor` or `__proto__` is just an unknown name), no input-sized array is spread into a
 * call, and every JSON value copied into the translation (a call's arguments, a `tool_use` input, a
 * schema) is walked without recursion and refused when nested deeper than `maxDepth`.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import { aMaxDepth, DEFAULT_MAX_REQUEST_DEPTH, fieldPath, jsonProblem } from '../../internal/jsonDepth';
import { checkOptions, type OptionCheck, type OptionChecks } from '../../internal/options';
import type * as OpenAIChatWire from '../../providers/openaiChat/wire';

/** The formats the request translators write. */
export type RequestTarget = 'anthropic' | 'openai-responses' | 'gemini' | 'gemini-interactions' | 'openai-chat' | 'bedrock-converse' | 'ollama';

/** Options every request translator shares. */
export interface TranslateRequestOptions {
  /**
   * Names the caller allows to be dropped: a field name (anywhere in the request, e.g. `'user'`,
   * `'cache_control'`, `'is_error'`) or a content part / block type (e.g. `'image_url'`,
   * `'thinking'`). A field or part named here is left out of the translation instead of throwing
   * `unsupported-request`. Default: nothing is dropped.
   */
  readonly ignore?: ReadonlyArray<string>;
  /**
   * The deepest nesting accepted in a JSON value the translation copies or builds from the request
   * (a call's arguments, a `tool_use` input, a tool's schema): an object or array is one level, the
   * value itself level 1. Deeper throws `unsupported-request` naming the first level too deep, so
   * the request written can always be sent with `JSON.stringify`. A whole number from 1 to
   * 1,024; default 512.
   */
  readonly maxDepth?: number;
}

/** The check of `ignore`: an array of names. */
const someNames: OptionCheck = (value) => (Array.isArray(value) && value.every((name) => typeof name === 'string') ? undefined : 'an array of field or part names (strings)');

/** The checks of {@link TranslateRequestOptions}' keys (each translator adds its own). */
export const TRANSLATE_OPTION_CHECKS: OptionChecks = { ignore: someNames, maxDepth: aMaxDepth };

/** The mark of a streaming request. */
export interface StreamingRequest {
  /** Always `true`. */
  stream: true;
}

/** `R`'s translation keeps a literal `stream: true`, so it fits the SDKs' `…Streaming` request types. */
export type WithStream<R, Out> = R extends StreamingRequest ? Out & StreamingRequest : Out;

/** Reads the fields of one request, failing with `unsupported-request` for the target it writes. */
export class RequestReader {
  private readonly ignored: ReadonlySet<string>;
  /** The `maxDepth` in force. */
  readonly maxDepth: number;

  /**
   * @param target The format being written (named on every error).
   * @param fn The translator's name, for an `invalid-option` error.
   * @param options `ignore`: the names that may be dropped; `maxDepth`; the translator's own keys, checked by `own`.
   * @param own The checks of the keys only this translator takes.
   * @throws {ToolStreamError} `invalid-option` for a key the translator does not take or a value it cannot use.
   */
  constructor(
    /** The format being written. */
    readonly target: RequestTarget,
    fn: string,
    options: TranslateRequestOptions = {},
    own: OptionChecks = {},
  ) {
    checkOptions(fn, options, TRANSLATE_OPTION_CHECKS, own);
    this.ignored = new Set(options.ignore ?? []);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_REQUEST_DEPTH;
  }

  /** Throw `unsupported-request` unless `value` can be written as JSON within `maxDepth` levels (see {@link jsonProblem}). */
  writable(value: unknown, path: string): void {
    const problem = jsonProblem(value, this.maxDepth, path);
    if (problem !== undefined) this.fail(problem.path, problem.detail);
  }

  /** Throw `unsupported-request` for the field at `path`. */
  fail(path: string, detail: string): never {
    throw new ToolStreamError('unsupported-request', { target: this.target, field: path, detail });
  }

  /** Whether the caller allowed `name` (a field name or a part type) to be dropped. */
  isIgnored(name: string): boolean {
    return this.ignored.has(name);
  }

  /**
   * A field the target cannot express: nothing when its value is absent, `null` or the neutral
   * value (`neutral`), or when its name is ignored; else throws naming it.
   */
  untranslatable(value: unknown, path: string, name: string, detail: string, neutral?: (value: unknown) => boolean): void {
    if (value === undefined || value === null || neutral?.(value) === true || this.isIgnored(name)) return;
    this.fail(path, detail);
  }

  /** Throw for every key of `record` that is not in `known` (unless absent, `null` or ignored). */
  rejectUnknown(record: Record<string, unknown>, path: string, known: ReadonlySet<string>): void {
    for (const [key, value] of Object.entries(record)) {
      if (!known.has(key)) this.untranslatable(value, fieldPath(path, key), key, `the field ${JSON.stringify(key)} is not supported`);
    }
  }

  /**
   * A flat function tool's `name`, `description` and `parameters` (AG-UI's tools, the Responses
   * API's function tools) as a chat function; its schema checked as one the translation copies.
   */
  flatFunction(tool: Record<string, unknown>, path: string): OpenAIChatWire.FunctionTool['function'] {
    const fn: OpenAIChatWire.FunctionTool['function'] = { name: this.string(tool['name'], fieldPath(path, 'name')) };
    const description = this.optionalString(tool['description'], fieldPath(path, 'description'));
    if (description !== undefined) fn.description = description;
    if (tool['parameters'] !== undefined && tool['parameters'] !== null) {
      const schemaPath = fieldPath(path, 'parameters');
      const parameters = this.record(tool['parameters'], schemaPath);
      this.writable(parameters, schemaPath);
      fn.parameters = parameters;
    }
    return fn;
  }

  /** `value` as a plain object, or throw. */
  record(value: unknown, path: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(path, 'must be an object');
    return value as Record<string, unknown>;
  }

  /** `value` as an array, or throw. */
  array(value: unknown, path: string): readonly unknown[] {
    if (!Array.isArray(value)) this.fail(path, 'must be an array');
    return value;
  }

  /** `value` as a string, or throw. */
  string(value: unknown, path: string): string {
    if (typeof value !== 'string') this.fail(path, 'must be a string');
    return value;
  }

  /** `value` as a string, `undefined` when absent or `null`, or throw. */
  optionalString(value: unknown, path: string): string | undefined {
    return value === undefined || value === null ? undefined : this.string(value, path);
  }

  /** `value` as a finite number, `undefined` when absent or `null`, or throw. */
  optionalNumber(value: unknown, path: string): number | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail(path, 'must be a finite number');
    return value;
  }

  /** `value` as a boolean, `undefined` when absent or `null`, or throw. */
  optionalBoolean(value: unknown, path: string): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') this.fail(path, 'must be a boolean');
    return value;
  }

  /** `value` as text: a string, or an array of `{ type: 'text', text }` parts (other part types throw unless ignored). */
  text(value: unknown, path: string, partType = 'text'): string | string[] {
    if (typeof value === 'string') return value;
    const parts: string[] = [];
    this.array(value, path).forEach((item, i) => {
      const partPath = fieldPath(path, i);
      const part = this.record(item, partPath);
      const type = this.string(part['type'], fieldPath(partPath, 'type'));
      if (type !== partType) {
        if (this.isIgnored(type)) return;
        this.fail(fieldPath(partPath, 'type'), `${type} parts are not supported (only ${partType})`);
      }
      this.rejectUnknown(part, partPath, TEXT_PART_KEYS);
      parts.push(this.string(part['text'], fieldPath(partPath, 'text')));
    });
    return parts;
  }
}

const TEXT_PART_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set(['type', 'text']);

/** Text read by {@link RequestReader.text} as one string (parts joined without a separator). */
export function joinText(text: string | readonly string[]): string {
  return typeof text === 'string' ? text : text.join('');
}
