// Types for bench/gateway-wire.mjs (imported by spec/bench/gatewayWire.spec.ts).
export const MARKER: string;
export function argumentsOf(s: number): string;
export function expectedCall(s: number): { id: string; name: string; arguments: string };
export function upstreamWrites(s: number): { writes: string[]; firstArgument: number };
export function streamOf(body: unknown): number;
export function callsOfChat(text: string): { calls: Array<{ id: string; name: string; arguments: string }>; ended: boolean; corrupt: boolean };
export function callsOfAnthropic(text: string): { calls: Array<{ id: string; name: string; arguments: string }>; ended: boolean; corrupt: boolean };
export function checkStream(wire: 'chat' | 'anthropic', s: number, text: string): { ok: boolean; lost: boolean; duplicated: boolean; corrupted: boolean };
