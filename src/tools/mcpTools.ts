/**
 * MCP tools as `tool()` records: `mcpTools(client)` lists a Model Context Protocol client's tools
 * (every page) and gives each one a record `runTools()` / `toolLoop()` run beside local tools. The
 * client is the caller's (the official TypeScript SDK's `Client`, any transport): this module
 * never imports the SDK, it types the two methods it calls.
 *
 * @module
 */
import { Observable } from 'rxjs';
import { ToolStreamError } from '../errors';
import { aCount, aString, checkOptions, type OptionChecks } from '../internal/options';
import type { StandardSchemaV1 } from '../parse/standardSchema';
import type { JsonSchema } from '../providers/openaiChat/wire';
import { jsonSchemaCheck } from './jsonSchemaCheck';
import type { ToolContext } from './types';

/** One tool as an MCP server lists it (`tools/list`): the fields `mcpTools()` reads. */
type McpToolInfo = Awaited<ReturnType<McpClient['listTools']>>['tools'][number];

/**
 * The part of an MCP client `mcpTools()` uses: the official TypeScript SDK's `Client`
 * (`@modelcontextprotocol/sdk`) has it, connected over any transport.
 */
export interface McpClient {
  /**
   * One page of the server's tools (`tools/list`).
   *
   * @param params The page's `cursor` (absent for the first page).
   */
  listTools(params?: { cursor?: string }): Promise<{
    /** The page's tools: the name, description and input schema of each are read. */
    readonly tools: ReadonlyArray<{
      /** The tool's name on the server. */
      readonly name: string;
      /** What it does, for the model. */
      readonly description?: string | undefined;
      /** The JSON Schema of its arguments (an object schema). */
      readonly inputSchema: JsonSchema;
    }>;
    /** The next page's cursor; absent on the last page. */
    readonly nextCursor?: string | undefined;
  }>;
  /**
   * Call a tool (`tools/call`).
   *
   * @param params The tool's name and arguments.
   * @param resultSchema Left to the client's default.
   * @param options The abort signal (an abort cancels the request) and the progress callback.
   */
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: {
      signal?: AbortSignal;
      onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
      resetTimeoutOnProgress?: boolean;
    },
  ): Promise<unknown>;
}

/** Options of {@link mcpTools}. */
export interface McpToolsOptions {
  /**
   * The largest result accepted, in UTF-8 bytes of its JSON: a bigger one fails the call with
   * `mcp-failed` (failure `'result-too-large'`) instead of reaching the model. Default 1 MiB
   * (1 048 576). The client has read the whole response by then: bound the transport too (its
   * `fetch`) when memory is the concern.
   */
  readonly maxResultBytes?: number;
  /** Each MCP tool's time limit in ms (its `timeoutMs`: when it passes, the call is cancelled). */
  readonly timeoutMs?: number;
  /** A prefix for the names the model calls the tools by (e.g. `'github_'`, to keep two servers' tools apart); the server is called by its own names. */
  readonly prefix?: string;
}

/** A progress notification of an MCP call, as a progress value of the tool (`tool-progress` in `toolLoop()`). */
interface McpProgress {
  /** The progress so far (increases with each notification). */
  readonly progress: number;
  /** The total, when the server knows it. */
  readonly total?: number | undefined;
  /** A message, when the server sent one. */
  readonly message?: string | undefined;
}

/** One MCP tool as a tool record: its name, description, input schema (sent as is), a check of the arguments and `execute`. */
export interface McpTool {
  /** The name the model calls it by (the server's name, after `prefix`). */
  readonly name: string;
  /** The server's description. */
  readonly description?: string | undefined;
  /** The server's `inputSchema`: what `toolSpecs()` sends, as given. */
  readonly parameters: JsonSchema;
  /** Checks a call's arguments against `parameters` (the keywords that decide a call's shape; the server checks again). */
  readonly schema: StandardSchemaV1<Readonly<Record<string, unknown>>>;
  /** The time limit, when `timeoutMs` was given. */
  readonly timeoutMs?: number | undefined;
  /**
   * Calls the tool: each progress notification is a progress value (`{ progress, total?, message? }`), then the
   * output: the `structuredContent` when the server sent one, else the text (text blocks joined by
   * `\n`) when the content is all text, else the content blocks. An `isError` result fails with
   * `mcp-tool-error`; unsubscribing cancels the request.
   *
   * @param args The validated arguments.
   * @param context The abort signal of the run.
   */
  execute(args: Readonly<Record<string, unknown>>, context: ToolContext): Observable<unknown>;
}

/** The checks of {@link McpToolsOptions}. */
const MCP_TOOLS_OPTIONS: OptionChecks = { maxResultBytes: /* @__PURE__ */ aCount(1), timeoutMs: /* @__PURE__ */ aCount(1), prefix: aString };

const DEFAULT_MAX_RESULT_BYTES = 1_048_576;
/** The most pages of `tools/list` followed: a server whose cursors never end is an `invalid-list`. */
const MAX_PAGES = 1000;

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** UTF-8 bytes of a string, counted without encoding it. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Every page of `tools/list`, checked: names unique, each with an object input schema. */
async function listAll(client: McpClient): Promise<McpToolInfo[]> {
  const invalid = (detail: string, cause?: unknown): ToolStreamError => new ToolStreamError('mcp-failed', { failure: 'invalid-list', detail }, cause === undefined ? {} : { cause });
  const tools: McpToolInfo[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES) throw invalid(`more than ${MAX_PAGES} pages`);
    let answer: unknown;
    try {
      answer = await client.listTools(cursor === undefined ? undefined : { cursor });
    } catch (error) {
      throw new ToolStreamError('mcp-failed', { failure: 'request-failed', detail: 'tools/list was not answered' }, { cause: error });
    }
    if (!isRecord(answer) || !Array.isArray(answer['tools'])) throw invalid('the answer has no tools array');
    for (const info of answer['tools'] as unknown[]) {
      if (!isRecord(info) || typeof info['name'] !== 'string' || info['name'] === '') throw invalid(`a tool without a name: ${JSON.stringify(info)?.slice(0, 120)}`);
      if (!isRecord(info['inputSchema'])) throw invalid(`tool ${info['name']} has no inputSchema object`);
      tools.push(info as unknown as McpToolInfo);
    }
    const next = answer['nextCursor'];
    if (next === undefined || next === null || next === '') return tools;
    if (typeof next !== 'string') throw invalid('nextCursor is not a string');
    if (cursors.has(next)) throw invalid(`the cursor ${JSON.stringify(next)} came back a second time`);
    cursors.add(next);
    cursor = next;
  }
}

/** The text blocks of a result's content, one per line; `undefined` when a block is not text. */
function textOf(content: ReadonlyArray<unknown>): string | undefined {
  const texts = content.map((block) => (isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : undefined));
  return texts.every((text) => text !== undefined) ? texts.join('\n') : undefined;
}

/** What a `tools/call` result gives the model: structured content, else the text, else the content blocks. */
function outputOf(result: Readonly<Record<string, unknown>>, content: ReadonlyArray<unknown>): unknown {
  if (result['structuredContent'] !== undefined) return result['structuredContent'];
  return textOf(content) ?? content;
}

/** The record of one MCP tool. */
function mcpTool(client: McpClient, info: McpToolInfo, name: string, maxResultBytes: number, timeoutMs: number | undefined): McpTool {
  const failed = (reason: 'request-failed' | 'result-too-large' | 'invalid-result', detail: string, extra: { limit?: number; cause?: unknown } = {}): ToolStreamError =>
    new ToolStreamError('mcp-failed', { tool: info.name, failure: reason, detail, ...(extra.limit === undefined ? {} : { limit: extra.limit }) }, 'cause' in extra ? { cause: extra.cause } : {});
  const execute = (args: Readonly<Record<string, unknown>>, { signal }: ToolContext): Observable<unknown> =>
    new Observable<unknown>((subscriber) => {
      const controller = new AbortController();
      let settled = false;
      const onAbort = (): void => controller.abort(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      client
        .callTool({ name: info.name, arguments: { ...args } }, undefined, {
          signal: controller.signal,
          resetTimeoutOnProgress: true,
          onprogress: ({ progress, total, message }) => {
            if (!settled) subscriber.next({ progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) } satisfies McpProgress);
          },
        })
        .then(
          (result) => {
            settled = true;
            if (!isRecord(result)) return subscriber.error(failed('invalid-result', 'the result is not an object'));
            const content = result['content'] ?? [];
            if (!Array.isArray(content)) return subscriber.error(failed('invalid-result', 'content is not an array'));
            const bytes = utf8Bytes(JSON.stringify(result));
            if (bytes > maxResultBytes) return subscriber.error(failed('result-too-large', `${bytes} bytes over the limit of ${maxResultBytes}`, { limit: maxResultBytes }));
            if (result['isError'] === true)
              return subscriber.error(
                new ToolStreamError('mcp-tool-error', {
                  tool: info.name,
                  content,
                  ...(result['structuredContent'] === undefined ? {} : { structuredContent: result['structuredContent'] }),
                  detail: textOf(content) ?? JSON.stringify(content),
                }),
              );
            subscriber.next(outputOf(result, content));
            subscriber.complete();
          },
          (error: unknown) => {
            settled = true;
            subscriber.error(failed('request-failed', 'tools/call was not answered', { cause: error }));
          },
        );
      return () => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) controller.abort(new Error(`The call of MCP tool ${info.name} was unsubscribed`));
      };
    });
  return {
    name,
    ...(info.description === undefined ? {} : { description: info.description }),
    parameters: info.inputSchema,
    schema: jsonSchemaCheck(info.inputSchema),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    execute,
  };
}

/**
 * An MCP server's tools as tool records, by the name the model calls them: `runTools()` and
 * `toolLoop()` run them beside local tools, `toolSpecs()` sends each one's `inputSchema` as given.
 * Lists every page of `tools/list` (a cursor that comes back, or more than 1000 pages, is an
 * `invalid-list`). A call's arguments are checked against the input schema first (`invalid-arguments`);
 * the call then runs on the server: its progress notifications are progress values, its result the
 * output (`structuredContent`, else the text, else the content blocks); an `isError` result, a request
 * that fails (the server died, the connection closed) or a result over `maxResultBytes` is a
 * `tool-failed` result whose `cause` is an `mcp-tool-error` or `mcp-failed` error. Unsubscribing (or
 * the tool's `timeoutMs`) cancels the request: the SDK's client sends `notifications/cancelled`.
 *
 * @param client A connected MCP client (the SDK's `Client`, or anything with its `listTools` and `callTool`).
 * @param options `maxResultBytes` (default 1 MiB), `timeoutMs`, `prefix`.
 * @return A Promise of the tools by name (the server's name after `prefix`).
 * @throws {ToolStreamError} `invalid-option` for an option it does not take (at once); the Promise
 *   rejects with `mcp-failed` when `tools/list` fails or is unusable (failure `'invalid-list'` for two
 *   tools of the same name).
 *
 * @example
 * ```ts
 * import { Client } from '@modelcontextprotocol/sdk/client/index.js';
 * import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
 * import { fromResponse } from 'rxjs-tool-calls';
 * import { mcpTools, tool, toolLoop } from 'rxjs-tool-calls/tools';
 *
 * const client = new Client({ name: 'my-app', version: '1.0.0' });
 * await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/mcp')));
 * const tools = { ...(await mcpTools(client, { prefix: 'docs_' })), now: tool({ description: 'The time', execute: () => new Date().toISOString() }) };
 * toolLoop(
 *   (messages, _step, { tools: specs }) =>
 *     fromResponse((signal) => fetch('https://api.openai.com/v1/chat/completions', { method: 'POST', signal, body: JSON.stringify({ model: 'gpt-5', stream: true, tools: specs, messages }) })),
 *   tools,
 *   { format: 'openai-chat', messages: [{ role: 'user', content: 'What do the docs say about retries?' }] },
 * ).subscribe((item) => {
 *   if (item.type === 'tool-result' && !item.result.success) console.log(item.result.error.message);
 * });
 * ```
 */
export function mcpTools(client: McpClient, options: McpToolsOptions = {}): Promise<Readonly<Record<string, McpTool>>> {
  checkOptions('mcpTools', options, MCP_TOOLS_OPTIONS);
  const { maxResultBytes = DEFAULT_MAX_RESULT_BYTES, timeoutMs, prefix = '' } = options;
  return listAll(client).then((infos) => {
    const tools: Record<string, McpTool> = {};
    for (const info of infos) {
      const name = `${prefix}${info.name}`;
      if (Object.hasOwn(tools, name)) throw new ToolStreamError('mcp-failed', { failure: 'invalid-list', detail: `two tools are named ${JSON.stringify(name)}` });
      tools[name] = mcpTool(client, info, name, maxResultBytes, timeoutMs);
    }
    return tools;
  });
}
