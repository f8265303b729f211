import { isToolStreamError, ToolStreamError } from 'rxjs-tool-calls';
import { PartialJsonParser } from 'rxjs-tool-calls/advanced';

describe('PartialJsonParser errors', () => {
  it("its error is of the library's family: code malformed-json, with detail and position", () => {
    const parser = new PartialJsonParser();
    parser.push('{"city": "Paris",');
    parser.push(' }');
    const error = parser.error;
    expect(error).toBeInstanceOf(ToolStreamError);
    expect(isToolStreamError(error, 'malformed-json')).toBe(true);
    expect(error).toMatchObject({ name: 'ToolStreamError', code: 'malformed-json', position: 18 });
    expect(error?.detail).toContain('expected a property name');
    expect(error?.message).toBe(`${error?.detail} at position 18`);
    expect(error?.toJSON()).toEqual({ name: 'ToolStreamError', code: 'malformed-json', message: error?.message, detail: error?.detail, position: 18 });
    let thrown: unknown;
    try {
      parser.end();
    } catch (caught) {
      thrown = caught;
    }
    expect(thrown).toBe(error);
  });
});
