// Builds Pivot's viewer page: src/main.js and its CSS bundled by esbuild, then inlined into src/index.html,
// so the page is ONE file that opens offline (a replay report is this file with the marker replaced).
//
//   node build.mjs [--out FILE] [--node-modules DIR] [--dev]
//
// --node-modules: where `npm ci` put the packages (the CMake build keeps them in the build tree, not in the
// source tree); by default the node_modules folder beside this script. --dev: no minification (debugging).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const MARKER = '__PIVOT_REPLAY__';

function parseArgs(argv) {
  const args = { out: path.join(here, 'dist', 'viewer.html'), nodeModules: path.join(here, 'node_modules'),
    dev: false };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--out') args.out = path.resolve(argv[++i]);
    else if (a === '--node-modules') args.nodeModules = path.resolve(argv[++i]);
    else if (a === '--dev') args.dev = true;
    else throw new Error(`build.mjs: unknown argument ${a}`);
  }
  return args;
}

function fail(message) {
  console.error(`build.mjs: ${message}`);
  process.exit(1);
}

const args = parseArgs(process.argv.slice(2));
if (!fs.existsSync(path.join(args.nodeModules, 'esbuild'))) {
  fail(`no esbuild in ${args.nodeModules} (run npm ci there first)`);
}
// esbuild is loaded from the given node_modules: the script itself may live where there is none.
const esbuild = createRequire(path.join(args.nodeModules, 'noop.js'))('esbuild');

const common = {
  bundle: true,
  minify: !args.dev,
  write: false,
  logLevel: 'warning',
  nodePaths: [args.nodeModules],
  legalComments: 'none',
  target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
};

const js = await esbuild.build({
  ...common,
  entryPoints: [path.join(here, 'src', 'main.js')],
  format: 'iife',
  // three's sources check process.env.NODE_ENV nowhere that matters, but a bundle must not reference `process`.
  define: { 'process.env.NODE_ENV': '"production"' },
});
const css = await esbuild.build({
  ...common,
  entryPoints: [path.join(here, 'src', 'style.css')],
  loader: { '.css': 'css' },
});

let jsText = js.outputFiles[0].text;
let cssText = css.outputFiles[0].text;
// Inlined, the script must not end its own <script> element; esbuild writes "</script" as "<\/script" in
// strings, and any left over (a regular expression, a comment) is refused here rather than mended blindly.
if (/<\/script/i.test(jsText)) fail('the bundle holds "</script"; it cannot be inlined');
// "<!--" would put the HTML parser in its escaped script state, where a later "<script" changes the parse.
if (jsText.includes('<!--')) fail('the bundle holds "<!--"; it cannot be inlined');
if (/<\/style/i.test(cssText)) fail('the CSS holds "</style"; it cannot be inlined');
// The recorder replaces the first (only) marker: the bundle must not carry one of its own.
if (jsText.includes(MARKER) || cssText.includes(MARKER)) fail(`the bundle holds the marker ${MARKER}`);

const template = fs.readFileSync(path.join(here, 'src', 'index.html'), 'utf8');
if (template.split(MARKER).length !== 2) fail(`src/index.html must hold the marker ${MARKER} exactly once`);
// A function as replacement: the bundle's own "$&" or "$1" must stay as they are.
const html = template
  .replace('/*PIVOT_CSS*/', () => cssText.trim())
  .replace('/*PIVOT_JS*/', () => jsText.trim());
if (html.split(MARKER).length !== 2) fail('the page holds the marker more than once');

fs.mkdirSync(path.dirname(args.out), { recursive: true });
// Written through a temporary file so that a build stopped half-way never leaves a truncated page behind.
const tmp = `${args.out}.tmp`;
fs.writeFileSync(tmp, html);
fs.renameSync(tmp, args.out);
console.log(`build.mjs: wrote ${args.out} (${Math.round(html.length / 1024)} KiB)`);
