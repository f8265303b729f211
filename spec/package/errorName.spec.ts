/**
 * A `ToolStreamError` prints as `ToolStreamError`: its `name`, its class's name, the first line of
 * its stack, `console.error` / `util.inspect` output, and `String(error)`. (The built dist/ is
 * checked the same way by scripts/smoke.mjs.)
 */
import { inspect } from 'node:util';
import { ToolStreamError } from 'rxjs-tool-calls';
import { httpProviderError } from 'rxjs-tool-calls/advanced';

const errors = [
  new ToolStreamError('idle-timeout', { timeoutMs: 5 }),
  new ToolStreamError('connection-lost', { source: 'fromResponse', byteOffset: 3 }, { cause: new Error('socket hang up') }),
  httpProviderError(401, '{"error":{"message":"Incorrect API key","type":"invalid_request_error","code":"invalid_api_key"}}', 'Unauthorized'),
];

describe('a ToolStreamError prints as ToolStreamError', () => {
  it('the class and the constructor of every error are named ToolStreamError', () => {
    expect(ToolStreamError.name).toBe('ToolStreamError');
    for (const error of errors) {
      expect(error.name).toBe('ToolStreamError');
      expect(error.constructor.name).toBe('ToolStreamError');
      expect(Object.prototype.toString.call(error)).toBe('[object Error]');
    }
  });

  it.each(errors.map((error) => [error.code, error] as const))('util.inspect (what console.error prints) of a %s error starts "ToolStreamError: <message>"', (_code, error) => {
    const printed = inspect(error);
    expect(printed.split('\n')[0]).toBe(`ToolStreamError: ${error.message}`);
    expect(printed).not.toMatch(/ToolStreamErrorClass|\[ToolStreamError\]|\[Error\]/);
    expect(String(error)).toBe(`ToolStreamError: ${error.message}`);
    expect(error.stack?.split('\n')[0]).toBe(`ToolStreamError: ${error.message}`);
  });
});
