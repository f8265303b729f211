/**
 * Google Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI, including Vertex streamed
 * function-call arguments) → {@link StreamEvent}s.
 *
 * @module
 */
import { ToolStreamError } from '../../errors';
import type { FinishReason, FramedRecord, ToolCallDeltaEvent } from '../../events';
import { asNumber, asRecord, asString, isAfterFinishFailure, KEEP_ALIVE, providerError, readEventData, type EventSink, type WireDecoder } from '../decoder';
import { geminiUsage, normalizeGeminiFinishReason } from './mapping';
import { PartialArgsBuilder } from './vertexPartialArgs';
import { errorEvent, requireObject, safeStringify, stringifyJson, usageEvent, wireString } from '../wire';

/** A Vertex call whose arguments are still streaming as `partialArgs` (written as JSON text as they arrive). */
interface StreamedCall {
  readonly index: number;
  readonly id: string | undefined;
  readonly builder: PartialArgsBuilder;
  /** A thought signature that arrived after the opening delta (sent with the call's next delta). */
  signature: string | undefined;
}

/** A whole call with empty arguments whose end is held: a nameless call carrying its arguments may follow. */
interface PendingCall {
  readonly index: number;
  readonly id: string | undefined;
}

/** Per-candidate state. */
interface Candidate {
  /** How many calls this candidate opened (the next call's ordinal index). */
  calls: number;
  open: StreamedCall | undefined;
  pending: PendingCall | undefined;
  finished: boolean;
  /** How many `executableCode` parts came (their ids: `code_<choice>_<n>`). */
  codeParts?: number;
  /** The id of the latest `executableCode` part: its results (there may be several) carry it. */
  lastCode?: string;
}

/** Decoder state for one Gemini stream. */
export class GeminiDecoder implements WireDecoder {
  /** The wire format this decoder reads: always `'gemini'`. */
  readonly provider = 'gemini' as const;
  private metadataSent = false;
  private lastUsage = '';
  private readonly candidates = new Map<number, Candidate>();

  sse(event: FramedRecord, emit: EventSink): void {
    if (event.event === 'error') {
      this.releaseAll(emit);
      throw errorEvent(this.provider, event);
    }
    // Gemini names no events: data under a name (`ping`, …) is read only when it is JSON.
    const payload = readEventData(this.provider, event.data, event.event === 'message');
    if (payload === KEEP_ALIVE) return;
    this.chunk(requireObject(this.provider, payload), event.data, emit);
  }

  payload(_eventName: string, payload: unknown, emit: EventSink): void {
    this.chunk(requireObject(this.provider, payload), undefined, emit);
  }

  private chunk(chunk: Record<string, unknown>, data: string | undefined, emit: EventSink): void {
    if (chunk['error'] !== undefined && chunk['error'] !== null) {
      this.releaseAll(emit);
      throw providerError(this.provider, chunk);
    }
    this.metadata(chunk, emit);
    const candidates = chunk['candidates'];
    if (candidates !== undefined && candidates !== null) {
      if (!Array.isArray(candidates)) throw new ToolStreamError('invalid-event', { provider: this.provider, data: data ?? safeStringify(chunk), detail: '`candidates` must be an array' });
      for (const value of candidates) {
        const candidate = asRecord(value);
        if (candidate !== undefined) this.candidate(candidate, data ?? safeStringify(chunk), emit);
      }
    }
    const blockReason = asString(asRecord(chunk['promptFeedback'])?.['blockReason']);
    if (blockReason && (!Array.isArray(candidates) || candidates.length === 0)) {
      // The prompt itself was blocked: no candidate will come.
      const state = this.state(0);
      if (!state.finished) {
        state.finished = true;
        emit({ type: 'finish', choice: 0, reason: 'content-filter', rawReason: blockReason });
      }
    }
    const usage = asRecord(chunk['usageMetadata']);
    if (usage !== undefined) this.usage(usage, emit);
  }

  private metadata(chunk: Record<string, unknown>, emit: EventSink): void {
    if (this.metadataSent) return;
    const responseId = wireString(chunk['responseId']);
    const model = wireString(chunk['modelVersion']);
    if (responseId === undefined && model === undefined) return;
    this.metadataSent = true;
    emit({ type: 'metadata', provider: this.provider, ...(responseId === undefined ? {} : { responseId }), ...(model === undefined ? {} : { model }) });
  }

  private state(choice: number): Candidate {
    let state = this.candidates.get(choice);
    if (state === undefined) {
      state = { calls: 0, open: undefined, pending: undefined, finished: false };
      this.candidates.set(choice, state);
    }
    return state;
  }

  private candidate(candidate: Record<string, unknown>, data: string, emit: EventSink): void {
    // proto3 JSON omits a zero index, so a missing index is candidate 0.
    const choice = asNumber(candidate['index']) ?? 0;
    const state = this.state(choice);
    const parts = asRecord(candidate['content'])?.['parts'];
    if (Array.isArray(parts)) {
      for (const value of parts) {
        const part = asRecord(value);
        if (part !== undefined) this.part(choice, state, part, data, emit);
      }
    }
    const rawReason = asString(candidate['finishReason']);
    if (rawReason) {
      const normalized = normalizeGeminiFinishReason(rawReason);
      // Gemini ends a turn that called tools with STOP: the turn asks for the tools to be run.
      const reason = normalized === 'stop' && state.calls > 0 ? 'tool-calls' : normalized;
      // A streamed call without its `functionCall: {}` terminator closes here; cut off unless the turn ended normally.
      this.close(choice, state, reason === 'stop' || reason === 'tool-calls' ? undefined : reason, emit);
      this.release(choice, state, emit);
      state.finished = true;
      emit({ type: 'finish', choice, reason, rawReason });
    }
  }

  /** End the held whole call, if any. */
  private release(choice: number, state: Candidate, emit: EventSink): void {
    const pending = state.pending;
    if (pending === undefined) return;
    state.pending = undefined;
    emit({ type: 'tool-call-end', choice, index: pending.index, ...(pending.id === undefined ? {} : { id: pending.id }) });
  }

  private part(choice: number, state: Candidate, part: Record<string, unknown>, data: string, emit: EventSink): void {
    const signature = wireString(part['thoughtSignature']);
    const call = asRecord(part['functionCall']);
    if (call !== undefined) {
      this.functionCall(choice, state, call, signature, data, emit);
      return;
    }
    this.release(choice, state, emit);
    const code = asRecord(part['executableCode']);
    const outcome = asRecord(part['codeExecutionResult']);
    if (code !== undefined || outcome !== undefined) return this.codeExecution(choice, state, part, code, outcome, emit);
    const text = asString(part['text']);
    if (text === undefined) return; // inlineData, …
    if (part['thought'] === true) {
      if (text || signature) emit({ type: 'reasoning-delta', choice, text, ...(signature === undefined ? {} : { signature }) });
      return;
    }
    // A signature on a text part (often an empty last part) stays with the text: it is sent back on it.
    if (text || signature) emit({ type: 'text-delta', choice, text, ...(signature === undefined ? {} : { signature }) });
  }

  /**
   * Gemini's code execution (run by Google): an `executableCode` part starts a run, each
   * `codeExecutionResult` part after it is a result of that run (one code part may have several).
   */
  private codeExecution(
    choice: number,
    state: Candidate,
    part: Record<string, unknown>,
    code: Record<string, unknown> | undefined,
    outcome: Record<string, unknown> | undefined,
    emit: EventSink,
  ): void {
    if (code !== undefined) {
      const n = state.codeParts ?? 0;
      state.codeParts = n + 1;
      state.lastCode = `code_${choice}_${n}`;
      emit({ type: 'provider-tool', choice, provider: this.provider, id: state.lastCode, tool: 'code_execution', status: 'running', input: code, raw: part });
      return;
    }
    const result = outcome ?? {};
    const failed = asString(result['outcome']) !== undefined && result['outcome'] !== 'OUTCOME_OK';
    emit({ type: 'provider-tool', choice, provider: this.provider, id: state.lastCode ?? `code_${choice}_result`, tool: 'code_execution', status: failed ? 'failed' : 'completed', result, raw: part });
  }

  private functionCall(choice: number, state: Candidate, call: Record<string, unknown>, signature: string | undefined, data: string, emit: EventSink): void {
    const name = wireString(call['name']);
    const partialArgs = call['partialArgs'];
    const streamed = Array.isArray(partialArgs);
    const willContinue = call['willContinue'] === true;
    const hasArgs = call['args'] !== undefined && call['args'] !== null;
    const args = asRecord(call['args']);
    // A gateway that sends a named call with empty args, then a nameless call with the args: one call.
    const pending = state.pending;
    if (pending !== undefined) {
      state.pending = undefined;
      if (name === undefined && !streamed && !willContinue && hasArgs) {
        emit({ type: 'tool-call-delta', choice, index: pending.index, ...(pending.id === undefined ? {} : { id: pending.id }), argumentsDelta: stringifyJson(args ?? {}), replace: true });
        emit({ type: 'tool-call-end', choice, index: pending.index, ...(pending.id === undefined ? {} : { id: pending.id }) });
        return;
      }
      emit({ type: 'tool-call-end', choice, index: pending.index, ...(pending.id === undefined ? {} : { id: pending.id }) });
    }
    // A whole call whose name is missing or not a string still carries its arguments: report it
    // (with name '') rather than mistake it for the terminator of a streamed call.
    const namelessWhole = name === undefined && !streamed && !willContinue && hasArgs;
    if (name !== undefined || namelessWhole || (streamed && state.open === undefined)) {
      this.close(choice, state, undefined, emit);
      const id = wireString(call['id']);
      const index = state.calls++;
      const opening = {
        type: 'tool-call-delta',
        choice,
        index,
        ...(id === undefined ? {} : { id }),
        ...(name === undefined ? {} : { name }),
        ...(signature === undefined ? {} : { metadata: { thoughtSignature: signature } }),
      } as const;
      if (!willContinue && !streamed) {
        // A whole call: its arguments are complete.
        emit({ ...opening, argumentsDelta: stringifyJson(args ?? {}), replace: true });
        if (name !== undefined && (args === undefined || Object.keys(args).length === 0)) state.pending = { index, id };
        else emit({ type: 'tool-call-end', choice, index, ...(id === undefined ? {} : { id }) });
        return;
      }
      const builder = new PartialArgsBuilder(args);
      state.open = { index, id, builder, signature: undefined };
      // The arguments are live from here: `{` (with the part's own `args`, if any), then each entry's text as it is read.
      emit({ ...opening, argumentsDelta: builder.start() });
    } else if (signature !== undefined && state.open !== undefined) {
      state.open.signature ??= signature;
    }
    const open = state.open;
    if (streamed && open !== undefined) {
      let problem: string | undefined;
      for (const entry of partialArgs) {
        problem = open.builder.apply(entry);
        if (problem !== undefined) break;
      }
      // What this chunk's entries wrote, at once (the entries before a bad one too).
      this.written(choice, open, emit);
      if (problem !== undefined) throw new ToolStreamError('invalid-event', { provider: this.provider, data, detail: problem });
      // A chunk with partialArgs and no willContinue is the call's last (vercel/ai#14358: no `functionCall: {}` follows).
      if (!willContinue) this.close(choice, state, undefined, emit);
      return;
    }
    // `functionCall: {}` (or without `willContinue`) ends the streamed call; `{willContinue: true}` alone is a no-op.
    if (name === undefined && !streamed && !willContinue) this.close(choice, state, undefined, emit);
  }

  /**
   * The text the streamed call's entries wrote since the last delta: appended, or the whole
   * arguments again when an entry changed what was already written (rule `vertex-partial-args`).
   */
  private written(choice: number, open: StreamedCall, emit: EventSink): void {
    const { text, restated } = open.builder.take();
    if (text === '' && !restated && open.signature === undefined) return;
    emit(this.streamedDelta(choice, open, text, restated));
  }

  /** A delta of the streamed call, carrying the thought signature that came after its opening (once). */
  private streamedDelta(choice: number, open: StreamedCall, text: string, restated: boolean): ToolCallDeltaEvent {
    const signature = open.signature;
    open.signature = undefined;
    return {
      type: 'tool-call-delta',
      choice,
      index: open.index,
      ...(open.id === undefined ? {} : { id: open.id }),
      argumentsDelta: text,
      ...(restated ? { replace: true } : {}),
      ...(signature === undefined ? {} : { metadata: { thoughtSignature: signature } }),
    };
  }

  /** Close the open streamed call's JSON text and end the call; `cutBy`: the finish that cut it. */
  private close(choice: number, state: Candidate, cutBy: FinishReason | undefined, emit: EventSink): void {
    const open = state.open;
    if (open === undefined) return;
    state.open = undefined;
    this.written(choice, open, emit);
    const closing = open.builder.end();
    if (closing !== '') emit(this.streamedDelta(choice, open, closing, false));
    emit({ type: 'tool-call-end', choice, index: open.index, ...(open.id === undefined ? {} : { id: open.id }), ...(cutBy === undefined ? {} : { incomplete: true, finishReason: cutBy }) });
  }

  private usage(usage: Record<string, unknown>, emit: EventSink): void {
    const counts = geminiUsage(usage);
    const key = Object.values(counts).join(',');
    if (key === this.lastUsage) return; // Gemini repeats usage on every chunk
    const event = usageEvent(counts, usage);
    if (event === undefined) return;
    this.lastUsage = key;
    emit(event);
  }

  end(emit: EventSink): void {
    this.releaseAll(emit);
    if (this.candidates.size === 0) throw new ToolStreamError('truncated', { provider: this.provider, detail: 'no candidate arrived' });
    const open = [...this.candidates].filter(([, state]) => !state.finished).map(([choice]) => choice);
    if (open.length > 0) throw new ToolStreamError('truncated', { provider: this.provider, detail: `candidate ${open.join(', ')} never sent a finishReason` });
    emit({ type: 'done' });
  }

  /**
   * The source failed: held calls end first. After every candidate finished, an idle timeout or a
   * dropped connection loses nothing (Gemini has no terminator): the stream is complete.
   */
  interrupt(error: unknown, emit: EventSink): boolean {
    this.releaseAll(emit);
    if (this.candidates.size === 0 || !isAfterFinishFailure(error)) return false;
    for (const state of this.candidates.values()) if (!state.finished) return false;
    emit({ type: 'done' });
    return true;
  }

  private releaseAll(emit: EventSink): void {
    for (const [choice, state] of this.candidates) this.release(choice, state, emit);
  }
}
