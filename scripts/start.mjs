// `npm start`: build the package (saying what it does; see scripts/build.mjs), then read the
// recorded stream examples/weather.sse with the package's CLI, as a user would with
// `npx rxjs-tool-calls examples/weather.sse`.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  await build();
} catch (error) {
  console.error(error.message);
  process.exit(error.exitCode ?? 1);
}
console.log('start: reading examples/weather.sse with the CLI (bin/rxjs-tool-calls.cjs examples/weather.sse):\n');
const cli = spawnSync(process.execPath, ['bin/rxjs-tool-calls.cjs', 'examples/weather.sse'], { cwd: root, stdio: 'inherit' });
process.exit(cli.status ?? 1);
