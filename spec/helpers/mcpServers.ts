/**
 * The scripted MCP server of `spec/tools/children/mcpServer.ts` (the official SDK's `McpServer`),
 * bundled once with esbuild and run as child processes: over Streamable HTTP on 127.0.0.1, or over
 * stdio by the SDK's `StdioClientTransport`; and the SDK's `Client` connected to either.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { build } from 'esbuild';

/** The bundled server script. */
export interface McpServerScript {
  readonly file: string;
  dispose(): void;
}

export async function bundleMcpServer(): Promise<McpServerScript> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rxjs-tool-calls-mcp-'));
  const file = path.join(dir, 'mcpServer.mjs');
  const banner = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";
  await build({
    entryPoints: [path.join(__dirname, '../tools/children/mcpServer.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    banner: { js: banner },
  });
  return { file, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A server child over Streamable HTTP. */
export interface HttpMcpServer {
  readonly url: string;
  readonly child: ChildProcess;
  /** Resolves with the exit code when the process ended. */
  readonly exited: Promise<number | null>;
  /** Kill it (if it still runs) and wait for its end. */
  stop(): Promise<void>;
}

export function startHttpMcpServer(script: McpServerScript, flags: ReadonlyArray<string> = []): Promise<HttpMcpServer> {
  const child = spawn(process.execPath, [script.file, 'http', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s;
      const line = out.split('\n')[0];
      if (out.includes('\n') && line !== undefined) {
        const { url } = JSON.parse(line) as { url: string };
        resolve({
          url,
          child,
          exited,
          stop: async () => {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`the MCP server exited (${code}) before listening`)));
  });
}

/** A client connected over Streamable HTTP. */
export async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A client connected over stdio to a new server child (closing the client ends the child). */
export async function stdioClient(script: McpServerScript, flags: ReadonlyArray<string> = []): Promise<{ readonly client: Client; readonly transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [script.file, 'stdio', ...flags], stderr: 'inherit' });
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}
