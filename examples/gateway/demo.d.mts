// Types for examples/gateway/demo.mjs (plain-Node ESM, imported by spec/gateway/gatewayDemo.e2e.spec.ts).

/** The running stand-ins: their origins, and a way to stop them. */
export interface DemoUpstreams {
  readonly anthropic: string;
  readonly gemini: string;
  close(): Promise<void>;
}

export function startDemoUpstreams(options?: { readonly pauseMs?: number }): Promise<DemoUpstreams>;
