/**
 * `injectChat()`: a multi-turn chat as Angular signals, with client tools, approvals and progress.
 *
 * @module
 */
import { assertInInjectionContext, DestroyRef, inject, Injector, signal, type Signal } from '@angular/core';
import { defer, Observable, Subject, takeUntil, type Subscription } from 'rxjs';
// Values from the main entry point and the tools wing's entry; types from their modules.
import { chatState, readStreamEvents, ToolStreamError } from '../index';
import { runTools, type AnyTool, type ToolList, type ToolRunResult, type ToolSet } from '../tools/index';
import type { ChatState, ChatStateCall, ChatUsage } from '../operators/chatState';
import type { FinishReason, FramedRecord, StreamEvent } from '../events';
import type { ReadStreamEventsOptions } from '../read/readStreamEvents';
import type { ToolCallResult } from '../result';
import { aCount, aFunction, anObject, anything, checkOptions, pickOptions, type OptionChecks } from '../internal/options';
import { READ_OPTION_CHECKS } from '../read/readStreamEvents';

/** The keys only `injectChat()` takes. */
const CHAT_OPTION_CHECKS: OptionChecks = { request: aFunction, tools: anything, maxSteps: /* @__PURE__ */ aCount(1, false), injector: anObject };

/** One tool call of an assistant message, as a view shows it. */
export interface ChatCall extends Omit<ChatStateCall, 'approval'> {
  /**
   * The approval the call waits for or got: asked by the backend's stream (a `tool-approval-request`,
   * `id` its approval id) or by a client tool's `needsApproval` (`id` the call's id). `approved` is
   * absent while it is pending.
   */
  readonly approval?: {
    /** The approval's id. */
    readonly id: string;
    /** The answer, once given. */
    readonly approved?: boolean;
    /** The reason given with a denial. */
    readonly reason?: string;
  };
}

/** One message of the conversation: a user turn, or one step of the assistant's answer. */
export type ChatMessage =
  | {
      /** The message's id (`u1`, `u2`, … in the order sent). */
      readonly id: string;
      /** Discriminant. */
      readonly role: 'user';
      /** What the user sent. */
      readonly text: string;
    }
  | {
      /** The message's id (`a1`, `a2`, …: one per request). */
      readonly id: string;
      /** Discriminant. */
      readonly role: 'assistant';
      /** `streaming` while the answer arrives; then `done`, `error` (the stream failed) or `stopped` (by {@link Chat.stop}). */
      readonly status: 'streaming' | 'done' | 'error' | 'stopped';
      /** The visible text. */
      readonly text: string;
      /** The reasoning text. */
      readonly reasoning: string;
      /** The tool calls in order, with their arguments as they grow, their outputs (progress values `preliminary`) and approvals. */
      readonly calls: ReadonlyArray<ChatCall>;
      /** Why the step ended, once it did. */
      readonly finishReason: FinishReason | undefined;
      /** The step's token usage, when reported. */
      readonly usage: ChatUsage | undefined;
    };

/** An approval waiting for the user, with the functions that answer it. */
export interface ChatApproval {
  /** The approval's id (the backend's approval id, or the call's id for a client tool). */
  readonly id: string;
  /** Who runs the call: a tool given to `injectChat()` (`client`), or the backend (`server`: the answer goes in the next request). */
  readonly side: 'client' | 'server';
  /** The call to approve. */
  readonly call: {
    /** The call's id. */
    readonly id: string;
    /** The tool's name. */
    readonly name: string;
    /** The arguments. */
    readonly arguments: unknown;
  };
  /** Allow the call; a client tool runs with `editedArguments` when given (validated by its schema again). */
  approve(editedArguments?: unknown): void;
  /** Refuse the call: it does not run, and the model reads the denial (with `reason`). */
  deny(reason?: string): void;
}

/** Options of {@link injectChat}. */
export interface ChatOptions extends ReadStreamEventsOptions {
  /**
   * Your request: given the conversation so far, the bytes (or text) of the backend's streamed
   * answer, in any wire format the library reads. Unsubscribing must abort it (as `HttpClient`,
   * `streamFrom()` and `fromResponse()` do). `context.uiMessages` is the conversation as the AI SDK's
   * `useChat` sends it (`UIMessage`s: text, reasoning and `tool-NAME` parts), for an AI SDK backend.
   */
  readonly request: (
    messages: ReadonlyArray<ChatMessage>,
    context: {
      /** The request's number within the current `send()`: 1, then 2, … for the automatic follow-ups. */
      readonly step: number;
      /** The conversation as AI SDK UI messages; calls without a result or an answered approval are left out. */
      readonly uiMessages: ReadonlyArray<{ readonly id: string; readonly role: 'user' | 'assistant'; readonly parts: ReadonlyArray<Readonly<Record<string, unknown>>> }>;
    },
  ) => Observable<Uint8Array | string | FramedRecord>;
  /** Client tools (`tool()` records with `execute`), run in the browser when the backend's answer ends with calls of theirs. */
  readonly tools?: ToolSet | ToolList;
  /** How many requests one `send()` makes at most (the first and the follow-ups after client tools or approvals). Default 5. */
  readonly maxSteps?: number;
  /** The injector to use outside an injection context. */
  readonly injector?: Injector;
}

/** A multi-turn chat, as signals. */
export interface Chat {
  /** The whole conversation: user turns and assistant steps, each a new immutable object when it changes. */
  readonly messages: Signal<ReadonlyArray<ChatMessage>>;
  /** `ready` (nothing running), `streaming`, `running` (client tools), `awaiting-approval`, or `error`. */
  readonly status: Signal<'ready' | 'streaming' | 'running' | 'awaiting-approval' | 'error'>;
  /** What ended the last step with an error (the messages are kept); cleared by the next `send()`. */
  readonly error: Signal<ToolStreamError | undefined>;
  /** The approvals waiting for an answer, in call order. */
  readonly approvals: Signal<ReadonlyArray<ChatApproval>>;
  /** Add a user turn and request the answer (stopping whatever still runs). */
  send(text: string): void;
  /** Unsubscribe from the request or the tools still running (the request is aborted); the messages keep what arrived. */
  stop(): void;
}

type AssistantMessage = Extract<ChatMessage, { readonly role: 'assistant' }>;
type ChatOutput = NonNullable<ChatCall['output']>;
type Answer = { readonly approved: boolean; readonly reason?: string; readonly arguments?: unknown; readonly edited?: boolean };

/** A denial's text, as the model reads it. */
const deniedText = (reason: string | undefined): string => `The user denied the call${reason === undefined ? '' : `: ${reason}`}`;

/** Any failure as a `ToolStreamError`: the library's own pass as they are, others (a failed request) become `connection-lost` with the cause. */
function typed(error: unknown): ToolStreamError {
  return error instanceof ToolStreamError ? error : new ToolStreamError('connection-lost', { source: 'injectChat', byteOffset: undefined }, { cause: error });
}

/** Whether a client tool asks for approval of `args` (a throw or rejection counts as yes; arguments its schema rejects need none: the run reports them). */
async function needsApproval(tool: AnyTool, call: { readonly arguments: unknown }): Promise<boolean> {
  const flag = tool.needsApproval;
  if (typeof flag !== 'function') return flag === true;
  try {
    let args = call.arguments;
    if (tool.schema !== undefined) {
      const checked = await tool.schema['~standard'].validate(args);
      if (checked.issues !== undefined) return false;
      args = checked.value;
    }
    return (await flag(args as never, { call: { ...call, arguments: args } as never })) !== false;
  } catch {
    return true;
  }
}

/** The conversation as AI SDK UI messages (see {@link ChatOptions.request}). */
function toUiMessages(messages: ReadonlyArray<ChatMessage>, clientTools: ReadonlyMap<string, unknown>): ReturnType<typeof uiMessage>[] {
  return messages.map((message) => uiMessage(message, clientTools));
}

/** One message as a `UIMessage`; an approval answer is sent for the backend's calls only (a client tool's approval ends in its output). */
function uiMessage(
  message: ChatMessage,
  clientTools: ReadonlyMap<string, unknown>,
): { readonly id: string; readonly role: 'user' | 'assistant'; readonly parts: ReadonlyArray<Readonly<Record<string, unknown>>> } {
  if (message.role === 'user') return { id: message.id, role: 'user', parts: [{ type: 'text', text: message.text }] };
  const parts: Readonly<Record<string, unknown>>[] = [];
  if (message.reasoning !== '') parts.push({ type: 'reasoning', text: message.reasoning });
  if (message.text !== '') parts.push({ type: 'text', text: message.text });
  for (const call of message.calls) {
    const base = { type: `tool-${call.name}`, toolCallId: call.id, input: call.result?.success === true ? call.result.data.arguments : call.partialArguments };
    const output = call.output;
    const approval = call.approval;
    if (output !== undefined && output.preliminary !== true) {
      if (output.denied === true)
        parts.push({ ...base, state: 'output-denied', approval: { id: approval?.id ?? call.id, approved: false, ...(approval?.reason === undefined ? {} : { reason: approval.reason }) } });
      else if (output.error !== undefined) parts.push({ ...base, state: 'output-error', errorText: output.error });
      else parts.push({ ...base, state: 'output-available', output: output.output });
    } else if (approval?.approved !== undefined && !clientTools.has(call.name)) {
      parts.push({ ...base, state: 'approval-responded', approval: { id: approval.id, approved: approval.approved, ...(approval.reason === undefined ? {} : { reason: approval.reason }) } });
    }
  }
  return { id: message.id, role: 'assistant', parts };
}

/** The tools by name. */
function byName(tools: ToolSet | ToolList | undefined): ReadonlyMap<string, AnyTool> {
  if (tools === undefined) return new Map();
  if (Array.isArray(tools)) return new Map((tools as ToolList).map((tool) => [tool.name, tool]));
  return new Map(Object.entries(tools as ToolSet));
}

/** The call a run result belongs to. */
function callIdOf(result: ToolRunResult): string {
  return result.success ? result.data.call.id : (result.call?.id ?? result.error.toolCall.id);
}

/**
 * A multi-turn chat in signals: `send(text)` adds a user turn and streams the answer of your
 * `request` (any wire format the library reads) into `messages()`; client tools run in the browser
 * and their results go back as the next request; approvals wait in `approvals()` for the template.
 *
 * <span class="informal">Call it in a field initializer. Nothing runs until `send()`; destroying
 * the component unsubscribes (the request is aborted, running tools too).</span>
 *
 * 1. Each request is one assistant message, folded by `chatState()`: text, reasoning, calls with
 *    their arguments as they grow, and the outputs and approval requests the stream carries (UI
 *    protocols); a later stream's output for an earlier message's call (a backend that ran an
 *    approved call) lands on that call.
 * 2. When the answer ends, the calls of `tools` it left unanswered run (`runTools()`): progress
 *    values show as `output` with `preliminary: true`, the last is the output. A client tool with
 *    `needsApproval` waits in `approvals()` first; so does every call the stream asked approval for.
 *    Once every call is answered, the conversation is sent again (at most `maxSteps` requests per
 *    `send()`).
 * 3. Errors never throw: the step ends `error`, `status()` is `error` and `error()` holds a typed
 *    `ToolStreamError` (a request that failed with anything else becomes `connection-lost` with it as
 *    the cause); the messages keep what arrived.
 * 4. `stop()` unsubscribes what runs (the request is aborted; the streaming message ends `stopped`,
 *    its open calls `incomplete`); calls left without a result are left out of the next request.
 *
 * @example
 * ```ts
 * import { Component, inject } from '@angular/core';
 * import { HttpClient } from '@angular/common/http';
 * import { z } from 'zod';
 * import { tool } from 'rxjs-tool-calls/tools';
 * import { injectChat, streamFrom } from 'rxjs-tool-calls/angular';
 *
 * @Component({
 *   selector: 'app-chat',
 *   template: `
 *     @for (message of chat.messages(); track message.id) {
 *       @if (message.role === 'user') { <p class="user">{{ message.text }}</p> }
 *       @else { <p>{{ message.text }}</p> }
 *     }
 *     @for (approval of chat.approvals(); track approval.id) {
 *       <button (click)="approval.approve()">Allow {{ approval.call.name }}</button>
 *       <button (click)="approval.deny('not now')">Deny</button>
 *     }
 *     <button (click)="chat.send('Weather in Zürich?')">Ask</button>
 *     <button (click)="chat.stop()">Stop</button>
 *   `,
 * })
 * export class ChatComponent {
 *   private readonly http = inject(HttpClient);
 *   readonly chat = injectChat({
 *     // An AI SDK backend: the body useChat sends.
 *     request: (_messages, { uiMessages }) => streamFrom(this.http, '/api/chat', { messages: uiMessages }),
 *     tools: { locate: tool({ schema: z.object({}), needsApproval: true, execute: async () => 'Zürich' }) },
 *   });
 * }
 * ```
 *
 * @param options `request`, the client `tools`, `maxSteps`, `injector` and `readStreamEvents()`'s options (`provider`, `idleTimeoutMs`, …).
 * @return The conversation's signals, `send()` and `stop()`.
 * @throws {ToolStreamError} `invalid-option`, at once, for an option it does not take or a value it cannot use.
 */
export function injectChat(options: ChatOptions): Chat {
  checkOptions('injectChat', options, READ_OPTION_CHECKS, CHAT_OPTION_CHECKS);
  if (options.injector === undefined) assertInInjectionContext(injectChat);
  const injector = options.injector ?? inject(Injector);
  const read = pickOptions(options, READ_OPTION_CHECKS);
  const tools = byName(options.tools);
  const maxSteps = options.maxSteps ?? 5;
  const messages = signal<ReadonlyArray<ChatMessage>>([]);
  const status = signal<'ready' | 'streaming' | 'running' | 'awaiting-approval' | 'error'>('ready');
  const error = signal<ToolStreamError | undefined>(undefined);
  const approvals = signal<ReadonlyArray<ChatApproval>>([]);
  let users = 0;
  let assistants = 0;
  let steps = 0;
  /** Bumped by every step and every stop: callbacks of an older one do nothing. */
  let generation = 0;
  /** What runs now: the request, or the client tools. */
  let running: { readonly subscription: Subscription; readonly abort?: Subject<never> } | undefined;
  let runs: Subscription | undefined;

  const replace = (id: string, change: (message: AssistantMessage) => AssistantMessage): void =>
    messages.update((list) => list.map((message) => (message.id === id && message.role === 'assistant' ? change(message) : message)));
  const setCall = (id: string, callId: string, change: (call: ChatCall) => ChatCall): void =>
    replace(id, (message) => ({ ...message, calls: message.calls.map((call) => (call.id === callId ? change(call) : call)) }));

  const stop = (): void => {
    generation++;
    const current = running;
    running = undefined;
    // An AbortError through the stream lets chatState() close the open calls before the request is unsubscribed.
    current?.abort?.error(new DOMException('The chat was stopped', 'AbortError'));
    current?.subscription.unsubscribe();
    runs?.unsubscribe();
    runs = undefined;
    approvals.set([]);
    if (status() !== 'error') status.set('ready');
  };
  injector.get(DestroyRef).onDestroy(stop);

  /** One request: a new assistant message, streamed. */
  const step = (): void => {
    if (steps >= maxSteps) {
      status.set('ready');
      return;
    }
    steps++;
    const mine = ++generation;
    const id = `a${++assistants}`;
    const before = messages();
    messages.set([...before, { id, role: 'assistant', status: 'streaming', text: '', reasoning: '', calls: [], finishReason: undefined, usage: undefined }]);
    status.set('streaming');
    let last: ChatState | undefined;
    let stopped = false;
    const abort = new Subject<never>();
    const subscription = defer(() => options.request(before, { step: steps, uiMessages: toUiMessages(before, tools) }))
      .pipe(
        takeUntil(abort),
        readStreamEvents(read),
        (events: Observable<StreamEvent>) =>
          new Observable<StreamEvent>((subscriber) =>
            events.subscribe({
              next: (event) => {
                // A result for a call of an earlier message (the backend ran an approved call): shown there.
                if (event.type === 'tool-result' && !(last?.calls.some((call) => call.id === event.id) ?? false)) {
                  const owner = [...messages()].reverse().find((m) => m.role === 'assistant' && m.id !== id && m.calls.some((call) => call.id === event.id));
                  if (owner !== undefined) {
                    const { type: _type, choice: _choice, id: callId, ...output } = event;
                    setCall(owner.id, callId, (call) => ({ ...call, output }));
                    return;
                  }
                }
                subscriber.next(event);
              },
              error: (cause: unknown) => {
                stopped = cause instanceof DOMException && cause.name === 'AbortError' && mine !== generation;
                subscriber.error(cause);
              },
              complete: () => subscriber.complete(),
            }),
          ),
        chatState(),
      )
      .subscribe({
        next: (state) => {
          last = state;
          replace(id, (message) => ({
            ...message,
            status: state.status === 'streaming' ? 'streaming' : stopped ? 'stopped' : state.status,
            text: state.text,
            reasoning: state.reasoning,
            calls: state.calls.map((call) => (call.approval === undefined ? (call as ChatCall) : { ...call, approval: message.calls.find((c) => c.id === call.id)?.approval ?? call.approval })),
            finishReason: state.finishReason,
            usage: state.usage,
          }));
        },
        complete: () => {
          if (mine !== generation) return;
          running = undefined;
          if (last?.status === 'error') {
            error.set(typed(last.error));
            status.set('error');
            return;
          }
          afterStream(id, mine);
        },
      });
    if (mine === generation && !subscription.closed) running = { subscription, abort };
  };

  /** The answer ended: run the client tools it called, wait for approvals, then go on. */
  const afterStream = (id: string, mine: number): void => {
    const message = messages().find((m): m is AssistantMessage => m.id === id && m.role === 'assistant');
    if (message === undefined) return;
    const server = message.calls.filter((call) => call.approval !== undefined && call.output === undefined);
    const client = message.calls.filter((call) => call.approval === undefined && call.output === undefined && call.result !== undefined && tools.has(call.name));
    if (server.length === 0 && client.length === 0) {
      status.set('ready');
      return;
    }
    const waiting = new Set<string>([...server.map((call) => call.id), ...client.map((call) => call.id)]);
    const toRun = new Subject<ToolCallResult>();
    let open = client.length;
    const settle = (callId: string): void => {
      waiting.delete(callId);
      if (mine !== generation) return;
      approvals.update((list) => list.filter((approval) => approval.call.id !== callId));
      if (waiting.size === 0) {
        toRun.complete();
        runs = undefined;
        step();
      } else {
        status.set(approvals().length > 0 && open === 0 ? 'awaiting-approval' : 'running');
      }
    };
    const ask = (call: ChatCall, side: 'client' | 'server', approvalId: string, answered: (answer: Answer) => void): void => {
      const args = call.result?.success === true ? call.result.data.arguments : call.partialArguments;
      let done = false;
      const answer = (value: Answer): void => {
        if (done || mine !== generation) return;
        done = true;
        approvals.update((list) => list.filter((approval) => approval.call.id !== call.id));
        setCall(id, call.id, (c) => ({ ...c, approval: { id: approvalId, approved: value.approved, ...(value.reason === undefined ? {} : { reason: value.reason }) } }));
        answered(value);
      };
      setCall(id, call.id, (c) => ({ ...c, approval: { id: approvalId } }));
      approvals.update((list) => [
        ...list,
        {
          id: approvalId,
          side,
          call: { id: call.id, name: call.name, arguments: args },
          approve: (editedArguments?: unknown) => answer(editedArguments === undefined ? { approved: true } : { approved: true, arguments: editedArguments, edited: true }),
          deny: (reason?: string) => answer(reason === undefined ? { approved: false } : { approved: false, reason }),
        },
      ]);
    };
    for (const call of server) ask(call, 'server', call.approval?.id ?? call.id, () => settle(call.id));
    runs = toRun.pipe(runTools(options.tools ?? {})).subscribe((result: ToolRunResult) => {
      if (mine !== generation) return;
      const callId = callIdOf(result);
      const output: ChatOutput = result.success ? (result.preliminary === true ? { output: result.data.output, preliminary: true } : { output: result.data.output }) : { error: result.error.message };
      setCall(id, callId, (call) => ({ ...call, output, ...(result.success && result.preliminary !== true ? { partialArguments: result.data.call.arguments } : {}) }));
      if (!(result.success && result.preliminary === true)) {
        open--;
        settle(callId);
      }
    });
    status.set('running');
    for (const call of client) {
      const result = call.result as ToolCallResult;
      const tool = tools.get(call.name) as AnyTool;
      const run = (value: ToolCallResult): void => {
        if (mine === generation) toRun.next(value);
      };
      const gated = result.success ? needsApproval(tool, result.data) : Promise.resolve(false);
      void gated.then((needed) => {
        if (mine !== generation) return;
        if (!needed) return run(result);
        open--;
        ask(call, 'client', call.id, (answer) => {
          if (!answer.approved) {
            setCall(id, call.id, (c) => ({ ...c, output: { denied: true, error: deniedText(answer.reason) } }));
            settle(call.id);
            return;
          }
          open++;
          status.set('running');
          run(result.success && answer.edited === true ? { success: true, data: { ...result.data, arguments: answer.arguments, rawArguments: JSON.stringify(answer.arguments) } } : result);
        });
        status.set(open === 0 ? 'awaiting-approval' : 'running');
      });
    }
    if (open === 0 && client.length === 0) status.set('awaiting-approval');
  };

  return {
    messages: messages.asReadonly(),
    status: status.asReadonly(),
    error: error.asReadonly(),
    approvals: approvals.asReadonly(),
    send(text: string): void {
      stop();
      error.set(undefined);
      steps = 0;
      messages.update((list) => [...list, { id: `u${++users}`, role: 'user', text }]);
      step();
    },
    stop,
  };
}
