// Types for examples/gateway/gateway.mjs (plain-Node ESM, imported by spec/gateway/gateway.e2e.spec.ts).
import type { Server } from 'node:http';
import type { TokenPrice, Usage } from 'rxjs-tool-calls';

/** One upstream: its origin and API key. */
export interface UpstreamOptions {
  readonly url?: string;
  readonly apiKey?: string | undefined;
}

/** One line of the gateway's log: a request, however it ended. */
export interface GatewayLogEntry {
  readonly model: string;
  readonly upstream: 'anthropic' | 'gemini';
  readonly outcome: 'complete' | 'upstream-error' | 'failed' | 'client-closed';
  /** The upstream's last usage report (counts only), or null. */
  readonly usage: Usage | null;
  /** `costOf(usage, price, { multiplier }).total`, or null without usage or price. */
  readonly cost: string | null;
}

export interface GatewayOptions {
  readonly anthropic?: UpstreamOptions;
  readonly gemini?: UpstreamOptions;
  readonly prices?: Readonly<Record<string, TokenPrice>>;
  readonly multiplier?: number | string;
  readonly defaultMaxTokens?: number;
  readonly idleTimeoutMs?: number;
  readonly log?: (entry: GatewayLogEntry) => void;
}

export const PRICES: Readonly<Record<string, TokenPrice>>;
export function priceOf(model: string, prices: Readonly<Record<string, TokenPrice>>): TokenPrice | undefined;
export function createGateway(options?: GatewayOptions): Server;
