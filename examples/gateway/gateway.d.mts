// Types for examples/gateway/gateway.mjs (plain-Node ESM, imported by spec/gateway/*.spec.ts).
import type { Server } from 'node:http';
import type { TokenPrice, Usage } from 'rxjs-tool-calls';
import type { OpenAIChatWire } from 'rxjs-tool-calls/gateway';

/** One upstream: its origin and API key. */
export interface UpstreamOptions {
  readonly url?: string;
  readonly apiKey?: string | undefined;
}

/** How a request ended. */
export type GatewayOutcome =
  /** The upstream's stream ended with its terminator and was relayed whole. */
  | 'complete'
  /** The upstream reported an error: an HTTP error status, or an error event in its stream. */
  | 'upstream-error'
  /** The upstream was unreachable, cut, stalled or unreadable. */
  | 'failed'
  /** The client went away first. */
  | 'client-closed'
  /** The gateway refused the request (no route, bad JSON, no model, not streaming, unsupported). */
  | 'refused';

/** One line of the gateway's log: a request, however it ended. */
export interface GatewayLogEntry {
  /** When the request arrived (ISO 8601). */
  readonly time: string;
  /** The client's `x-request-id`, or the gateway's own (`gw-1`, …); sent back as `x-request-id`. A WebSocket turn's: its socket's, a dot and the turn's number (`gw-3.2`). */
  readonly id: string;
  readonly model: string | null;
  readonly upstream: 'anthropic' | 'gemini' | null;
  /** The status of the upstream's response, or null when none arrived. */
  readonly upstreamStatus: number | null;
  /** The status the client got, or null when it left before one was written. */
  readonly status: number | null;
  readonly outcome: GatewayOutcome;
  /** The upstream's last usage report (counts only), or null. */
  readonly usage: Usage | null;
  /** `costOf(usage, price, { multiplier }).total`, or null without usage or price. */
  readonly cost: string | null;
  /** Milliseconds since the request arrived: to the first text or tool-call token, to the first tool-argument fragment, to the end. */
  readonly ms: { readonly firstToken: number | null; readonly firstToolArgument: number | null; readonly total: number };
  /** What ended it, when it was not a clean end: the error's code and message (and the wait the upstream asked for). */
  readonly error: { readonly code: string | null; readonly message: string; readonly retryAfterMs?: number } | null;
}

export interface GatewayOptions {
  readonly anthropic?: UpstreamOptions;
  readonly gemini?: UpstreamOptions;
  readonly prices?: Readonly<Record<string, TokenPrice>>;
  readonly multiplier?: number | string;
  readonly defaultMaxTokens?: number;
  readonly idleTimeoutMs?: number;
  readonly maxRequestBytes?: number;
  /** The model of a UI request (`/api/chat`, `/api/agent`) whose body names none. Default `claude-sonnet-4-5`. */
  readonly uiModel?: string;
  /** The server's tools offered on the UI routes: chat function tools (`toolSpecs(tools, 'openai-chat')`). */
  readonly uiTools?: ReadonlyArray<OpenAIChatWire.FunctionTool>;
  readonly log?: (entry: GatewayLogEntry) => void;
  /** WebSocket mode: how many responses of a socket the gateway keeps the conversation of, for `previous_response_id`. Default 8. */
  readonly maxSocketResponses?: number;
}

/** The gateway's server, with the number of requests it is serving. */
export interface GatewayServer extends Server {
  inFlight(): number;
}

export const PRICES: Readonly<Record<string, TokenPrice>>;
export function priceOf(model: string, prices: Readonly<Record<string, TokenPrice>>): TokenPrice | undefined;
export function createGateway(options?: GatewayOptions): GatewayServer;
