/**
 * The Gemini Interactions wire types fit `@google/genai`'s own (checked by tsc, never run): the
 * steps the tools wing writes are the SDK's `Interactions.Step`s, its function tools the SDK's
 * `Interactions.Function`s, and the events `geminiInteractions()` reads are the SDK's SSE events.
 */
import type { Interactions } from '@google/genai';
import { toolMessages, toolSpecs, type GeminiInteractionsWire, type ToolStep } from 'rxjs-tool-calls/tools';

declare const step: ToolStep;

// The model's steps and the function results a tool loop sends back are SDK steps (a server tool's
// step is sent back as the stream gave it: its own shape).
declare const own: Array<Exclude<ReturnType<typeof toolMessages<'gemini-interactions'>>[number], GeminiInteractionsWire.ServerToolStep>>;
const input: Interactions.Step[] = [{ type: 'user_input', content: [{ type: 'text', text: 'Weather?' }] } satisfies GeminiInteractionsWire.UserInputStep, ...own];
const written: Array<GeminiInteractionsWire.Step | GeminiInteractionsWire.ServerToolStep> = toolMessages('gemini-interactions', step);
void [input, written];

// Function tools are the SDK's.
const tools: Interactions.Function[] = toolSpecs({}, 'gemini-interactions');
void tools;

// Each event type of the wire is the SDK's event of that name.
declare const event: GeminiInteractionsWire.StreamEvent;
type Named<T extends string> = Extract<Interactions.InteractionSSEEvent, { event_type: T }>;
const created: Named<'interaction.created'>['event_type'] | Exclude<GeminiInteractionsWire.StreamEvent['event_type'], 'interaction.created'> = event.event_type;
void created;
declare const delta: Extract<GeminiInteractionsWire.StreamEvent, { event_type: 'step.delta' }>;
const sdkDelta: Named<'step.delta'> = delta;
declare const update: Extract<GeminiInteractionsWire.StreamEvent, { event_type: 'interaction.status_update' }>;
const sdkUpdate: Named<'interaction.status_update'> = update;
void [sdkDelta, sdkUpdate];
