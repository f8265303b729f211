// A client of the gateway with the official `openai` SDK: one request with a tool, the call's
// arguments printed as they stream, the tool "run" and its result sent back, the answer printed.
//
//   node examples/gateway/client.mjs [baseURL] [model]     default http://127.0.0.1:8787/v1, claude-sonnet-4-5
//
// Start the gateway first (`npm run example:gateway -- --demo` needs no API keys).
import OpenAI from 'openai';

const baseURL = process.argv[2] ?? 'http://127.0.0.1:8787/v1';
const model = process.argv[3] ?? 'claude-sonnet-4-5';
const client = new OpenAI({ baseURL, apiKey: 'unused-by-the-demo', maxRetries: 0 });
const tools = [
  { type: 'function', function: { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } },
];
const messages = [{ role: 'user', content: 'What is the weather in Paris?' }];

try {
  const stream = client.chat.completions.stream({ model, messages, tools });
  stream.on('content', (delta) => process.stdout.write(delta));
  stream.on('tool_calls.function.arguments.delta', ({ name, arguments_delta }) => arguments_delta && process.stdout.write(`\n  ${name} arguments += ${JSON.stringify(arguments_delta)}`));
  const first = await stream.finalChatCompletion();
  const message = first.choices[0].message;
  console.log(`\nfinish_reason: ${first.choices[0].finish_reason}`);
  for (const call of message.tool_calls ?? []) console.log(`tool call ${call.id}: ${call.function.name}(${call.function.arguments})`);
  const results = (message.tool_calls ?? []).map((call) => ({ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ celsius: 18, sky: 'clear' }) }));
  const second = await client.chat.completions.stream({ model, tools, messages: [...messages, message, ...results] }).finalChatCompletion();
  console.log(`answer: ${second.choices[0].message.content}`);
} catch (error) {
  // A 429 / 529 from the upstream arrives as an APIError with its status and Retry-After.
  console.error(`request failed: ${error.status ?? ''} ${error.message}`);
  process.exitCode = 1;
}
