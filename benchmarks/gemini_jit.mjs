// Gemini CLI's own JIT discovery (`loadJitSubdirectoryMemory`, what `discoverJitContext` calls for its
// read/write/list tools), timed on the touches benchmarks/discovery.py gives it, in the same run.
//
//   node benchmarks/gemini_jit.mjs PACKAGE_DIR < {"root": ..., "names": [...], "first": [...], "warm": [...]}
//
// PACKAGE_DIR holds node_modules/@google/gemini-cli-core (benchmarks/discovery.py --gemini). The file
// names are set to the ones the jitctx run looks for, so both search the same candidates. As in a Gemini
// CLI session, the loaded paths are remembered across touches: a file is returned once; every touch still
// walks up from its directory. Prints {"first": [us...], "warm": [us...], "loaded": N} on stdout.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// The package's debug logger writes every step with console.debug; the CLI shows those only in debug
// mode. Silenced here, so that stdout carries the result alone and the timing is not a terminal's.
console.debug = () => {};

const dist = path.join(process.argv[2], 'node_modules/@google/gemini-cli-core/dist/src');
const memory = await import(pathToFileURL(path.join(dist, 'utils/memoryDiscovery.js')).href);
const tool = await import(pathToFileURL(path.join(dist, 'tools/memoryTool.js')).href);

const input = JSON.parse(readFileSync(0, 'utf8'));
tool.setGeminiMdFilename(input.names);
const loaded = new Set();
const identities = new Set();

async function touch(target) {
  const started = process.hrtime.bigint();
  const result = await memory.loadJitSubdirectoryMemory(target, [input.root], loaded, identities, ['.git']);
  const elapsed = Number(process.hrtime.bigint() - started) / 1000;
  for (const file of result.files) loaded.add(file.path);
  for (const identity of result.fileIdentities ?? []) identities.add(identity);
  return elapsed;
}

const first = [];
for (const target of input.first) first.push(await touch(target));
const warm = [];
for (const target of input.warm) warm.push(await touch(target));
process.stdout.write(JSON.stringify({ first, warm, loaded: loaded.size }) + '\n');
