/**
 * The recorded streams of each format, cut into one chunk per framed record: the shared fixtures
 * (SSE, ../shared/fixtures, read in place) by their `api`, the project's own framed fixtures
 * (spec/fixtures/framing: Bedrock event streams with their frames, Ollama NDJSON), and the
 * project's own streams of the formats the recordings do not cover: Gemini Interactions
 * (spec/fixtures/sse), the UI protocols (their conformance cases, written by the protocols' own
 * producers: spec/helpers/uiCases.ts) and OpenAI Realtime sessions (spec/helpers/realtimeWire.ts,
 * one WebSocket message per chunk).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderName } from 'rxjs-tool-calls';
import { loadFixtures, loadOwnFixtures } from '../helpers/fixtures';
import { FRAMING_FIXTURES_DIR, loadFramingFixtures } from '../helpers/framingFixtures';
import { RealtimeSession, records as realtimeRecords, type RealtimeEvent } from '../helpers/realtimeWire';
import { AG_UI_CASES, AI_SDK_UI_CASES, aiSdkUiCaseStream } from '../helpers/uiCases';
import { agUiStream } from '../helpers/uiClients';
import { frameChunks, lineRecords, sseRecords, type LiveStream, type WireRecord } from './harness';

/** The format of a shared fixture, from its `api`. */
function formatOf(api: string): ProviderName {
  if (api.includes('openai-responses')) return 'openai-responses';
  if (api.includes('anthropic-messages')) return 'anthropic';
  if (api.startsWith('gemini-interactions')) return 'gemini-interactions';
  if (api.startsWith('gemini')) return 'gemini';
  if (api.startsWith('cohere')) return 'cohere';
  return 'openai-chat';
}

/** Every recorded stream of `provider`, one chunk per record. */
export function liveStreams(provider: ProviderName): LiveStream[] {
  const out: LiveStream[] = [];
  for (const fixture of [...loadFixtures(), ...loadOwnFixtures()]) {
    if (formatOf(fixture.expected.api) !== provider) continue;
    out.push({ name: fixture.name, provider, ...sseRecords(fixture.bytes) });
  }
  for (const fixture of loadFramingFixtures()) {
    if (fixture.expected.provider !== provider) continue;
    if (fixture.framing === 'aws-event-stream') {
      const file = join(FRAMING_FIXTURES_DIR, `${fixture.name}.frames.json`);
      const frames = (JSON.parse(readFileSync(file, 'utf8')) as { frames: Array<Record<string, unknown>> }).frames;
      const records: WireRecord[] = frames.map((frame) =>
        'chunk' in frame ? { event: 'chunk', data: frame['chunk'] } : { event: String(frame['event'] ?? frame['exception']), data: frame['payload'] },
      );
      out.push({ name: fixture.name, provider, chunks: frameChunks(fixture.bytes), records });
    } else if (fixture.framing === 'ndjson') {
      out.push({ name: fixture.name, provider, ...lineRecords(fixture.bytes) });
    }
  }
  return out;
}

/** The AI SDK UI message streams `streamText` writes for each conformance case, one chunk per SSE event. */
export async function aiSdkUiStreams(): Promise<LiveStream[]> {
  const out: LiveStream[] = [];
  for (const [name, spec] of Object.entries(AI_SDK_UI_CASES)) out.push({ name, provider: 'ai-sdk-ui', ...sseRecords((await aiSdkUiCaseStream(spec)).bytes) });
  return out;
}

/** The AG-UI runs `@ag-ui/encoder` writes for each conformance case, one chunk per SSE event. */
export function agUiStreams(): LiveStream[] {
  return Object.entries(AG_UI_CASES).map(([name, events]) => ({ name, provider: 'ag-ui', ...sseRecords(agUiStream(events)) }));
}

/** Realtime sessions as the Realtime reader's spec writes them, one WebSocket message (a record) per chunk. */
export function realtimeStreams(): LiveStream[] {
  const weather = { callId: 'call_w', name: 'get_weather', arguments: '{"city":"Zürich"}' };
  const time = { callId: 'call_t', name: 'get_time', arguments: '{"tz":"Asia/Tokyo"}', piece: 3 };
  const sessions: Record<string, () => RealtimeEvent[]> = {
    'parallel calls, then a spoken answer': () => {
      const s = new RealtimeSession();
      return [...s.created(), ...s.response({ calls: [weather, time] }), ...s.response({ transcript: 'It is 18 degrees in Zürich.' })];
    },
    'text and two calls, then a transcript': () => {
      const s = new RealtimeSession();
      return [...s.created(), ...s.response({ calls: [weather, time], text: 'Checking.' }), ...s.response({ transcript: 'Done.' })];
    },
    'a later response reusing output index 0': () => {
      const s = new RealtimeSession();
      return [...s.response({ calls: [weather] }), ...s.response({ calls: [{ ...weather, callId: 'call_w2', arguments: '{"city":"Bern"}' }] })];
    },
    'a call given only in response.done': () => new RealtimeSession().response({ calls: [time] }).filter((e) => e.type === 'response.created' || e.type === 'response.done'),
    'a response cancelled mid-call, then another': () => {
      const s = new RealtimeSession();
      const cancelled = s
        .response({ calls: [weather], status: 'cancelled', reason: 'turn_detected' })
        .filter((e) => e.type !== 'response.output_item.done' && e.type !== 'response.function_call_arguments.done');
      const done = cancelled.at(-1) as RealtimeEvent & { response: Record<string, unknown> };
      return [...cancelled.slice(0, -1), { ...done, response: { ...done.response, output: [] } }, ...s.response({ text: 'Sure.' })];
    },
    'the socket closing during a call': () => new RealtimeSession().response({ calls: [weather] }).slice(0, 4),
  };
  return Object.entries(sessions).map(([name, write]) => {
    const events = write();
    return { name, provider: 'openai-realtime', chunks: realtimeRecords(events), records: events.map((data): WireRecord => ({ event: 'message', data })) };
  });
}
