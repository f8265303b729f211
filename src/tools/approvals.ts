/**
 * Approvals in `toolLoop()`: which calls need one, the request and the decision, the result a
 * denial gives, and the checkpoint a loop stopped at a pending approval is resumed from.
 *
 * @module
 */
import { concat, defaultIfEmpty, defer, map, mergeMap, type Observable, of, take, type ObservableInput } from 'rxjs';
import { ToolStreamError, type ToolStreamErrorCode } from '../errors';
import { stringifyJson } from '../internal/json';
import { contextOf, validateArguments } from '../parse/validate';
import type { ToolCall, ToolCallResult } from '../result';
import type { ToolStep } from './messages/shared';
import type { AnyTool, ToolRun, ToolRunResult } from './types';
import type { ToolApprovalDecision, ToolApprovalRequest, ToolLoopCheckpoint } from './loopItems';

/** A call on its way to `runTools()`, a denial, a request to show, or a call left pending. */
export type Gated =
  | { readonly type: 'run'; readonly result: ToolCallResult }
  | { readonly type: 'denied'; readonly result: ToolRunResult }
  | { readonly type: 'approval'; readonly request: ToolApprovalRequest }
  | { readonly type: 'pending'; readonly call: ToolCall };

/** Whether `tool` needs approval for `call`: its flag, or its function of the validated arguments (a throw means yes; invalid arguments need none: `runTools()` reports them). */
function needsApproval(tool: AnyTool, call: ToolCall): Observable<boolean> {
  const flag = tool.needsApproval;
  if (typeof flag !== 'function') return of(flag === true);
  const ask = async (): Promise<boolean> => {
    try {
      let args = call.arguments;
      if (tool.schema !== undefined) {
        const validation = await validateArguments(tool.schema, call.arguments, contextOf(call));
        if (!validation.success) return false;
        args = validation.data;
      }
      return (await flag(args as never, { call: { ...call, arguments: args } as ToolCall<string, never> })) !== false;
    } catch {
      return true;
    }
  };
  return defer(ask);
}

/** A denial as a run result: `tool-denied`, with the call. */
export function denied(call: ToolCall, reason: string | undefined): ToolRunResult {
  return { success: false, error: new ToolStreamError('tool-denied', { toolCall: contextOf(call), ...(reason === undefined ? {} : { reason }) }), call };
}

/** The call with edited arguments (written back as what ran). */
function edited(call: ToolCall, args: unknown): ToolCall {
  const { repaired: _repaired, ...rest } = call as ToolCall & { readonly repaired?: unknown };
  return { ...rest, arguments: args, rawArguments: stringifyJson(args) } as ToolCall;
}

/** What a decision makes of a call. */
export function decide(call: ToolCall, decision: unknown): Gated {
  const d = typeof decision === 'object' && decision !== null ? (decision as Readonly<Record<string, unknown>>) : {};
  if (d['type'] === 'approve') return { type: 'run', result: { success: true, data: 'arguments' in d ? edited(call, d['arguments']) : call } };
  return { type: 'denied', result: denied(call, typeof d['reason'] === 'string' ? d['reason'] : undefined) };
}

/**
 * One arriving call through the approval gate: passed on, or (when its tool needs approval) an
 * `approval` followed by the decision's outcome, or `pending` when `approve` is absent or gave none.
 * A call pending already (a resumed step's) goes to `approve` without asking `needsApproval` again.
 */
export function gate(
  step: number,
  result: ToolCallResult,
  byName: ReadonlyMap<string, AnyTool>,
  approve: ((request: ToolApprovalRequest) => ObservableInput<ToolApprovalDecision>) | undefined,
  pendingAlready = false,
): Observable<Gated> {
  if (!result.success) return of({ type: 'run', result });
  const call = result.data;
  const tool = byName.get(call.name);
  // A call that was pending when the loop paused needs its approval still: `needsApproval` is not asked again.
  if (!pendingAlready && (tool === undefined || tool.needsApproval === undefined || tool.needsApproval === false)) return of({ type: 'run', result });
  return (pendingAlready || tool === undefined ? of(true) : needsApproval(tool, call)).pipe(
    mergeMap((yes): Observable<Gated> => {
      if (!yes) return of({ type: 'run', result });
      const request: ToolApprovalRequest = { step, call };
      const pending: Gated = { type: 'pending', call };
      const decision =
        approve === undefined
          ? of(pending)
          : defer(() => approve(request)).pipe(
              take(1),
              map((d): Gated => decide(call, d)),
              defaultIfEmpty(pending),
            );
      return concat(of<Gated>({ type: 'approval', request }), decision);
    }),
  );
}

/** A settled result as JSON (an error as its `toJSON()`). */
export function savedResult(result: ToolRunResult<ToolRun>): Readonly<Record<string, unknown>> {
  if (result.success) return { success: true, data: result.data };
  return { success: false, error: result.error.toJSON(), ...(result.call === undefined ? {} : { call: result.call }) };
}

/** A saved result back as a run result (an error with its code, fields and message). */
export function restoredResult(saved: Readonly<Record<string, unknown>>): ToolRunResult {
  if (saved['success'] === true) return saved as unknown as ToolRunResult;
  const { name: _name, code, message, cause, ...details } = saved['error'] as Readonly<Record<string, unknown>>;
  const error = new ToolStreamError(code as ToolStreamErrorCode, details as never, cause === undefined ? undefined : { cause });
  if (typeof message === 'string') Object.defineProperty(error, 'message', { value: message, enumerable: false, writable: true, configurable: true });
  const call = saved['call'] as ToolCall | undefined;
  return (call === undefined ? { success: false, error } : { success: false, error, call }) as ToolRunResult;
}

/** The turn of a checkpoint, as the message builders take it. */
export function restoredTurn(turn: ToolLoopCheckpoint['turn']): { step(results: ReadonlyArray<ToolRunResult<ToolRun>>): ToolStep } {
  return {
    step: (results) => ({ text: turn.text, reasoning: turn.content.flatMap((p) => (p.type === 'reasoning' ? [p.part] : [])), results, content: turn.content }),
  };
}
