/**
 * Parse a tool call's complete argument text.
 *
 * @module
 */
import { jsonErrorPosition } from './jsonErrorPosition';

/** The outcome of parsing complete argument text. */
export type ParsedArguments =
  | {
      /** `true`: the text is valid JSON (or blank). */
      readonly ok: true;
      /** The parsed value; `{}` for empty or whitespace-only text. */
      readonly value: unknown;
    }
  | {
      /** `false`: the text is not valid JSON. */
      readonly ok: false;
      /** `JSON.parse`'s error message (engine-specific wording, e.g. `"Unexpected end of JSON input"`). */
      readonly message: string;
      /** The character offset where parsing failed: from the engine's message when it gives one, else computed; `undefined` when unknown. */
      readonly position: number | undefined;
    };

/** True for the whitespace JSON allows between tokens. */
function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** True when `raw` is empty or only whitespace (arguments that mean `{}`). */
export function isBlank(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) if (!isJsonWhitespace(raw.charCodeAt(i))) return false;
  return true;
}

/**
 * Parse complete argument text: empty or whitespace-only means `{}`; otherwise `JSON.parse`.
 * A failure keeps the parser's message and, when the engine reports it, the character position.
 * `JSON.parse` never evaluates anything and creates `__proto__` keys as own data properties, so
 * no argument text can reach a prototype.
 */
export function parseArguments(raw: string): ParsedArguments {
  if (raw.length === 0) return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    if (isBlank(raw)) return { ok: true, value: {} }; // whitespace only: no arguments
    const message = error instanceof Error ? error.message : String(error);
    const match = /position (\d+)/.exec(message);
    const position = match?.[1] === undefined ? jsonErrorPosition(raw) : Number(match[1]);
    return { ok: false, message, position };
  }
}
