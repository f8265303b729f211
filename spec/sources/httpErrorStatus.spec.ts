/**
 * A non-2xx response says its status, whatever its body: the error's `status` field and its
 * message (`… HTTP 401 Unauthorized: …`), for the JSON error body of each provider, plain text, an
 * HTML error page, JSON that is no error object, and no body at all. Each response comes from a
 * real HTTP server on 127.0.0.1 through `fromResponse(fetch(…))`.
 */
import { lastValueFrom } from 'rxjs';
import { fromResponse, isToolStreamError, type ToolStreamError } from 'rxjs-tool-calls';
import { startSourcesServer, type SourcesServer } from '../helpers/sourcesServer';

interface Case {
  readonly what: string;
  readonly status: number;
  readonly body: string;
  readonly type?: string;
  /** The message, exactly (`<statusLine>` stands for `HTTP <status> <statusText>`, as Node's server sends them). */
  readonly message: string;
  /** Whether the body is a JSON error object (kept parsed as `payload`; other bodies are kept as text). */
  readonly json?: true;
  readonly fields?: Partial<Record<'providerCode' | 'type', string>>;
}

const cloudflarePage = `<!DOCTYPE html>
<!--[if lt IE 7]> <html class="no-js ie6 oldie" lang="en-US"> <![endif]-->
<html class="no-js" lang="en-US"> <!--<![endif]-->
<head>
<title>api.example.com | 520:
  Web server is returning an unknown error</title>
<meta charset="UTF-8" />
</head>
<body>${'<div class="cf-wrapper"></div>\n'.repeat(60)}</body>
</html>`;

const nginxPage = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

const cases: Case[] = [
  {
    what: 'OpenAI (chat, Responses, and every compatible server)',
    json: true,
    status: 401,
    body: '{"error":{"message":"Incorrect API key provided: sk-abc.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}',
    message: 'http error invalid_api_key (invalid_request_error): <statusLine>: Incorrect API key provided: sk-abc.',
    fields: { providerCode: 'invalid_api_key', type: 'invalid_request_error' },
  },
  {
    what: 'Anthropic',
    json: true,
    status: 401,
    body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_011"}',
    message: 'http error (authentication_error): <statusLine>: invalid x-api-key',
    fields: { type: 'authentication_error' },
  },
  {
    what: 'Anthropic overloaded (a status Node has no text for)',
    json: true,
    status: 529,
    body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    message: 'http error (overloaded_error): <statusLine>: Overloaded',
  },
  {
    what: 'Gemini',
    json: true,
    status: 400,
    body: '{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}',
    message: 'http error 400 (INVALID_ARGUMENT): <statusLine>: API key not valid. Please pass a valid API key.',
    fields: { providerCode: '400', type: 'INVALID_ARGUMENT' },
  },
  {
    what: "Gemini's streaming endpoint (a one-element array)",
    json: true,
    status: 429,
    body: '[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]',
    message: 'http error 429 (RESOURCE_EXHAUSTED): <statusLine>: Resource has been exhausted (e.g. check quota).',
  },
  { what: 'Cohere', json: true, status: 401, body: '{"id":"5c1d","message":"invalid api token"}', message: 'http error: <statusLine>: invalid api token' },
  {
    what: 'AWS Bedrock',
    json: true,
    status: 403,
    body: '{"message":"The security token included in the request is invalid."}',
    message: 'http error: <statusLine>: The security token included in the request is invalid.',
  },
  {
    what: 'Ollama (the error as text)',
    json: true,
    status: 404,
    body: '{"error":"model \\"llama9\\" not found, try pulling it first"}',
    message: 'http error: <statusLine>: model "llama9" not found, try pulling it first',
  },
  { what: 'a JSON error object without a message', json: true, status: 500, body: '{"error":{"code":"boom"}}', message: 'http error boom: <statusLine>' },
  {
    what: 'plain text',
    status: 503,
    type: 'text/plain',
    body: 'upstream connect error or disconnect/reset before headers\n',
    message: 'http error: <statusLine>: upstream connect error or disconnect/reset before headers',
  },
  {
    what: "a proxy's HTML page",
    status: 502,
    type: 'text/html',
    body: nginxPage,
    message: `http error: <statusLine>: ${nginxPage.trim()}`,
  },
  {
    what: "a CDN's HTML page",
    status: 520,
    type: 'text/html',
    body: cloudflarePage,
    message: `http error: <statusLine>: ${cloudflarePage.slice(0, 200)}… (${cloudflarePage.length} chars)`,
  },
  { what: 'JSON that is no error object', status: 400, body: '["bad", "request"]', message: 'http error: <statusLine>: ["bad", "request"]' },
  { what: 'a JSON string', status: 402, body: '"quota exceeded"', message: 'http error: <statusLine>: "quota exceeded"' },
  { what: 'an empty body', status: 401, body: '', message: 'http error: <statusLine>' },
];

let server: SourcesServer;
beforeAll(async () => {
  server = await startSourcesServer();
});
afterAll(() => server.close());

/** The error `fromResponse(fetch(url))` ends with, and the response's status line as fetch saw it. */
async function failure(c: Case): Promise<{ error: ToolStreamError<'provider-error'>; statusLine: string }> {
  const url = `${server.origin}/status/${c.status}?type=${encodeURIComponent(c.type ?? 'application/json')}&body=${encodeURIComponent(c.body)}`;
  const response = fetch(url);
  const { status, statusText } = await response;
  expect(status).toBe(c.status);
  const error = await lastValueFrom(fromResponse(response)).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isToolStreamError(error, 'provider-error')) throw new Error(`expected a provider-error, got ${String(error)}`);
  return { error, statusLine: `HTTP ${status}${statusText ? ` ${statusText}` : ''}` };
}

describe('an HTTP error says its status', () => {
  it.each(cases.map((c) => [c.what, c.status, c] as const))('%s (%i)', async (_what, status, c) => {
    const { error, statusLine } = await failure(c);
    expect(statusLine).toMatch(new RegExp(`^HTTP ${status}\\b`));
    expect(error.status).toBe(status);
    expect(error.message).toBe(c.message.replace('<statusLine>', statusLine));
    expect(error.payload).toEqual(c.json ? JSON.parse(c.body) : c.body);
    expect(error.retryable).toBe(status === 429 || status >= 500);
    if (c.fields !== undefined) expect(error).toMatchObject(c.fields);
  });

  it('the status text comes from the response (here "Unauthorized")', async () => {
    const { error } = await failure(cases[0]!);
    expect(error.message).toContain('HTTP 401 Unauthorized: Incorrect API key provided');
  });
});
