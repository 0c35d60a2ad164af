// Worker thread that runs the eSpeak NG WebAssembly build (npm package `espeak-ng`), so the
// synchronous synthesis never blocks the service's event loop. The 18 MB wasm binary is compiled
// once per worker; every request gets a fresh instance (eSpeak's CLI main() runs once per instance).
// Plain JavaScript on purpose: worker threads do not inherit the tsx loader.
import { parentPort } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const jsPath = require.resolve('espeak-ng');
const wasmPath = jsPath.replace(/espeak-ng\.js$/, 'espeak-ng.wasm');

let ready = null;
function load() {
  ready ??= (async () => {
    const [{ default: ESpeakNg }, bytes] = await Promise.all([import('espeak-ng'), readFile(wasmPath)]);
    const module = await WebAssembly.compile(bytes);
    return { ESpeakNg, module };
  })();
  return ready;
}

async function synthesize({ text, voice, rate }) {
  const { ESpeakNg, module } = await load();
  const log = [];
  const inst = await ESpeakNg({
    arguments: ['-v', voice, '-s', String(rate), '-w', '/out.wav', '-f', '/in.txt'],
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(module, imports).then((instance) => done(instance, module));
      return {};
    },
    preRun: [(M) => M.FS.writeFile('/in.txt', text)],
    print: (s) => log.push(s),
    printErr: (s) => log.push(s),
  });
  let wav;
  try {
    wav = inst.FS.readFile('/out.wav');
  } catch {
    throw new Error(`espeak-ng produced no audio${log.length ? `: ${log.join(' | ')}` : ''}`);
  }
  if (wav.length <= 44) throw new Error(`espeak-ng produced empty audio${log.length ? `: ${log.join(' | ')}` : ''}`);
  return wav;
}

parentPort.on('message', async (msg) => {
  if (msg?.type === 'warmup') {
    try {
      await load();
      parentPort.postMessage({ id: msg.id, ok: true });
    } catch (err) {
      parentPort.postMessage({ id: msg.id, ok: false, error: String(err?.message ?? err) });
    }
    return;
  }
  try {
    const wav = await synthesize(msg);
    const copy = new Uint8Array(wav); // detach from the wasm heap so it can be transferred
    parentPort.postMessage({ id: msg.id, ok: true, wav: copy }, [copy.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: msg.id, ok: false, error: String(err?.message ?? err) });
  }
});
