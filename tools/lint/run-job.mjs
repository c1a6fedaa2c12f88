#!/usr/bin/env node
// Runs one job of a GitHub Actions workflow here, the way a GitHub runner runs a `container:` job, to show that
// its files land where its upload and cache steps look. The layout is a container's:
//   <work>/__w/<repo>/<repo>   the checkout ($GITHUB_WORKSPACE): a clone of the committed HEAD (depth 1 unless the
//                              checkout asks for history; uncommitted edits are not in it), owned by another user
//                              (uid 65534) when run as root, so git's ownership check applies as on GitHub
//   <work>/__w/_temp           $RUNNER_TEMP, with the GITHUB_ENV / GITHUB_PATH / GITHUB_OUTPUT / summary files
//   <work>/home                $HOME, empty but for ~/.npmrc: no global git configuration carries over
// ${{ github.workspace }} and the other host paths expand to <work>/host/..., a folder that does not exist, as the
// host's paths do not inside a container. Each `run:` step runs with the workflow's shell rules (sh -e by
// default, bash -eo pipefail for `shell: bash`); local composite actions (uses: ./...) are expanded;
// actions/checkout is the layout itself; actions/cache restores from --cache-from (a folder copied in, as a
// restored cache would be) and its path is checked at the end; actions/upload-artifact resolves each path and
// reports it present or MISSING (copied to <work>/artifacts/<name>); actions/download-artifact copies from
// --artifacts. Other remote actions are skipped and listed.
// Usage: run-job.mjs --workflow FILE --job ID [--matrix KEY=VALUE]... [--work DIR] [--cache-from DIR]
//                    [--artifacts DIR] [--event push|pull_request]
// Exit: 0 when every step that ran passed and every upload path is present; 1 otherwise; 2 bad usage.
import { readFileSync, writeFileSync, existsSync, mkdirSync, rmSync, cpSync, readdirSync, statSync, appendFileSync } from 'node:fs';
import { join, resolve, dirname, relative, isAbsolute } from 'node:path';
import { spawnSync, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function usage(message) {
  console.error(`run-job: ${message}`);
  process.exit(2);
}

const args = { matrix: {}, event: 'push' };
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i];
  const next = () => (i + 1 < process.argv.length ? process.argv[++i] : usage(`${a} needs a value`));
  if (a === '--workflow') args.workflow = resolve(next());
  else if (a === '--job') args.job = next();
  else if (a === '--matrix') {
    const [k, ...v] = next().split('=');
    args.matrix[k] = v.join('=');
  } else if (a === '--work') args.work = resolve(next());
  else if (a === '--cache-from') args.cacheFrom = resolve(next());
  else if (a === '--artifacts') args.artifacts = resolve(next());
  else if (a === '--event') args.event = next();
  else usage(`unknown argument ${a}`);
}
if (!args.workflow || !args.job) usage('--workflow and --job are required');
if (!existsSync(args.workflow)) usage(`${args.workflow}: no such file`);
const workflow = parse(readFileSync(args.workflow, 'utf8'));
const job = workflow.jobs?.[args.job];
if (!job) usage(`${args.workflow}: no job ${args.job}`);

// The layout. A --work folder is emptied only when this tool made it (its marker file is there).
const work = args.work ?? join('/tmp', `perfgate-job-${args.job}-${process.pid}`);
const marker = join(work, '.perfgate-run-job');
if (existsSync(work)) {
  if (!existsSync(marker)) usage(`${work} exists and was not made by run-job; give a new folder`);
  rmSync(work, { recursive: true, force: true });
}
mkdirSync(work, { recursive: true });
writeFileSync(marker, '');
const name = 'perfgate';
const workspace = join(work, '__w', name, name);
const temp = join(work, '__w', '_temp');
const home = join(work, 'home');
const host = join(work, 'host', 'home', 'runner', 'work', name, name);  // never created
const artifactsOut = join(work, 'artifacts');
for (const d of [temp, home, artifactsOut]) mkdirSync(d, { recursive: true });
// As actions/checkout: the last commit only, unless the job's checkout asks for history (fetch-depth: 0).
const fullHistory = (job.steps ?? []).some((s) => /^actions\/checkout@/.test(String(s.uses)) && String(s.with?.['fetch-depth']) === '0');
execFileSync('git', ['clone', '--quiet', ...(fullHistory ? ['--no-hardlinks'] : ['--depth', '1']), `file://${repo}`, workspace]);
const sha = execFileSync('git', ['-C', workspace, 'rev-parse', 'HEAD']).toString().trim();
const root = process.getuid?.() === 0;
if (root) execFileSync('chown', ['-R', '65534:65534', workspace]);

const files = { env: join(temp, 'github_env'), path: join(temp, 'github_path'), summary: join(temp, 'step_summary') };
for (const f of Object.values(files)) writeFileSync(f, '');

const context = {
  github: {
    workspace: host, sha, run_id: String(process.pid), event_name: args.event, repository: `example/${name}`,
    base_ref: args.event === 'pull_request' ? 'main' : '', ref: 'refs/heads/main', action_path: '',
    event: { repository: { fork: false }, ...(args.event === 'pull_request' ? { pull_request: { number: 1 } } : {}) },
  },
  runner: { workspace: join(work, 'host', 'home', 'runner', 'work', name), temp: join(work, 'host', 'temp'), tool_cache: '/opt/hostedtoolcache' },
  matrix: args.matrix,
  needs: { test: { result: 'success' }, ab: { result: args.event === 'pull_request' ? 'success' : 'skipped' } },
  vars: {},
};

// ${{ expr }}: the few expressions these workflows use. An unknown one stops the run rather than guess.
function value(expr, scope) {
  expr = expr.trim();
  if (expr === '!cancelled()' || expr === 'always()' || expr === 'success()') return true;
  // a || b, a && b (no parentheses in these workflows), then !a; '&&' binds tighter, as in GitHub's expressions.
  if (expr.includes(' || ')) return expr.split(' || ').some((part) => Boolean(value(part, scope)));
  if (expr.includes(' && ')) return expr.split(' && ').every((part) => Boolean(value(part, scope)));
  if (/^![^=]/.test(expr)) return !value(expr.slice(1), scope);
  const eq = expr.match(/^(.+?)\s*(==|!=)\s*'([^']*)'$/);
  if (eq) return (String(value(eq[1], scope)) === eq[3]) === (eq[2] === '==');
  const path = expr.split('.');
  let v = { ...context, inputs: scope.inputs ?? {}, steps: scope.steps ?? {}, env: scope.env ?? {} }[path[0]];
  if (v === undefined) throw new Error(`unsupported expression: ${expr}`);
  for (const p of path.slice(1)) {
    // Unset inputs, step outputs, env and vars read as '' (as on GitHub); anything else unknown stops the run.
    if (v === undefined || v === null || !(p in Object(v))) {
      if (['inputs', 'steps', 'env', 'vars'].includes(path[0])) return '';
      throw new Error(`unsupported expression: ${expr} (give --matrix or extend run-job)`);
    }
    v = v[p];
  }
  return v ?? '';
}
function expand(text, scope) {
  if (typeof text !== 'string') return text;
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, e) => String(value(e, scope)));
}
function condition(step, scope, failed) {
  if (step.if === undefined) return !failed;
  const e = String(step.if).replace(/^\$\{\{(.*)\}\}$/s, '$1');
  const always = /(!cancelled\(\)|always\(\))/.test(e);
  return (always || !failed) && Boolean(value(e.replace(/^\s*\$\{\{|\}\}\s*$/g, ''), scope));
}

function readEnvFile() {
  const out = {};
  const lines = readFileSync(files.env, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = lines[i].match(/^([^=<]+)<<(.+)$/);
    if (heredoc) {
      const body = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) body.push(lines[i]);
      out[heredoc[1]] = body.join('\n');
    } else if (lines[i].includes('=')) {
      const k = lines[i].slice(0, lines[i].indexOf('='));
      out[k] = lines[i].slice(k.length + 1);
    }
  }
  return out;
}
function readOutputs(file) {
  const out = {};
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  return out;
}

const report = { steps: [], uploads: [], caches: [], skipped: [] };
const baseEnv = { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8', CI: 'true', GITHUB_ACTIONS: 'true',
  GITHUB_WORKSPACE: workspace, RUNNER_TEMP: temp, GITHUB_ENV: files.env, GITHUB_PATH: files.path,
  GITHUB_STEP_SUMMARY: files.summary, GITHUB_SHA: sha, GITHUB_EVENT_NAME: args.event,
  GITHUB_REPOSITORY: context.github.repository, GITHUB_RUN_ID: context.github.run_id };
// The machine's network set-up (proxies, extra CA certificates, npm's registry settings) carries over, as a
// runner has its own: without it npm and apt could not reach their registries here. Nothing else does.
for (const [k, v] of Object.entries(process.env)) {
  if (/^(https?_proxy|no_proxy|HTTPS?_PROXY|NO_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|CURL_CA_BUNDLE|GIT_SSL_CAINFO)$/.test(k)) baseEnv[k] = v;
}
if (process.env.HOME && existsSync(join(process.env.HOME, '.npmrc'))) cpSync(join(process.env.HOME, '.npmrc'), join(home, '.npmrc'));

function runScript(script, shell, env, cwd, label) {
  const file = join(temp, `step-${report.steps.length + 1}.sh`);
  writeFileSync(file, script);
  // GitHub's templates for the shell keywords; a custom shell is a command with {0} for the script.
  const templates = { bash: 'bash --noprofile --norc -eo pipefail {0}', sh: 'sh -e {0}', python: 'python3 {0}' };
  const template = templates[shell] ?? (shell?.includes('{0}') ? shell : undefined);
  if (shell && !template) throw new Error(`unsupported shell: ${shell}`);
  const command = (template ?? (job.container ? 'sh -e {0}' : 'bash -e {0}')).replace('{0}', file).split(/\s+/);
  const extraPath = readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse();
  const fullEnv = { ...baseEnv, ...readEnvFile(), ...env };
  fullEnv.PATH = [...extraPath, fullEnv.PATH].join(':');
  const start = Date.now();
  console.log(`\n::: ${label}`);
  const r = spawnSync(command[0], command.slice(1), { cwd, env: fullEnv, stdio: 'inherit' });
  const seconds = ((Date.now() - start) / 1000).toFixed(1);
  return { status: r.status ?? 1, seconds };
}

function stringEnv(map, scope) {
  const out = {};
  for (const [k, v] of Object.entries(map ?? {})) out[k] = String(expand(String(v), scope));
  return out;
}

function globPaths(pattern) {
  const abs = isAbsolute(pattern) ? pattern : join(workspace, pattern);
  if (!/[*?]/.test(abs)) return existsSync(abs) ? [abs] : [];
  const dir = dirname(abs);
  if (!existsSync(dir)) return [];
  const re = new RegExp('^' + abs.slice(dir.length + 1).replace(/[.+^$()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '.') + '$');
  return readdirSync(dir).filter((f) => re.test(f)).map((f) => join(dir, f));
}

function runSteps(steps, scope, label) {
  let failed = scope.failed ?? false;
  for (const [i, step] of (steps ?? []).entries()) {
    const title = `${label} step ${i + 1}: ${expand(String(step.name ?? step.uses ?? step.run?.split('\n')[0]), scope)}`;
    if (!condition(step, scope, failed)) {
      report.steps.push({ title, result: 'not run' });
      continue;
    }
    const env = { ...scope.env, ...stringEnv(step.env, scope) };
    if (step.run !== undefined) {
      const outputFile = join(temp, `output-${report.steps.length + 1}`);
      writeFileSync(outputFile, '');
      const cwd = step['working-directory'] ? join(workspace, expand(step['working-directory'], scope)) : workspace;
      const r = runScript(expand(step.run, scope), step.shell ?? scope.shell, { ...env, GITHUB_OUTPUT: outputFile, ...scope.actionEnv }, cwd, title);
      if (step.id) scope.steps[step.id] = { outputs: readOutputs(outputFile) };
      report.steps.push({ title, result: r.status === 0 ? `passed (${r.seconds} s)` : `FAILED, exit ${r.status} (${r.seconds} s)` });
      if (r.status !== 0) failed = true;
      continue;
    }
    const uses = String(step.uses);
    const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(String(v), scope)]));
    if (uses.startsWith('./')) {
      const dir = join(workspace, uses);
      const action = parse(readFileSync(join(dir, 'action.yml'), 'utf8'));
      const inputs = {};
      for (const [k, spec] of Object.entries(action.inputs ?? {})) inputs[k] = w[k] ?? String(spec?.default ?? '');
      const inner = { inputs, steps: {}, env, failed, actionEnv: { GITHUB_ACTION_PATH: dir } };
      failed = runSteps(action.runs.steps, inner, `${label} > ${uses}`);
      report.steps.push({ title, result: failed ? 'FAILED' : 'passed' });
    } else if (/^actions\/checkout@/.test(uses)) {
      report.steps.push({ title, result: `the layout's checkout at ${workspace}` });
    } else if (/^actions\/cache(\/restore|\/save)?@/.test(uses)) {
      const path = w.path;
      if (!uses.includes('/save') && args.cacheFrom && !existsSync(join(workspace, path))) {
        cpSync(args.cacheFrom, join(workspace, path), { recursive: true });
        if (root) execFileSync('chown', ['-R', '65534:65534', join(workspace, path)]);
      }
      report.caches.push(path);
      report.steps.push({ title, result: `cache path ${path}` });
    } else if (/^actions\/upload-artifact@/.test(uses)) {
      for (const line of String(w.path).split('\n').map((l) => l.trim()).filter(Boolean)) {
        const found = globPaths(line);
        report.uploads.push({ artifact: w.name, path: line, found: found.length });
        for (const f of found) cpSync(f, join(artifactsOut, w.name, relative(workspace, f)), { recursive: true });
      }
      report.steps.push({ title, result: `upload ${w.name}` });
    } else if (/^actions\/download-artifact@/.test(uses)) {
      if (args.artifacts) {
        const re = new RegExp('^' + String(w.pattern ?? w.name).replace(/\*/g, '.*') + '$');
        for (const a of readdirSync(args.artifacts).filter((d) => re.test(d))) {
          cpSync(join(args.artifacts, a), join(workspace, w.path ?? '.'), { recursive: true });
        }
      }
      report.steps.push({ title, result: `download from ${args.artifacts ?? '(no --artifacts)'}` });
    } else {
      report.skipped.push(uses);
      report.steps.push({ title, result: 'skipped (remote action)' });
    }
  }
  return failed;
}

if (job.if !== undefined && !value(String(job.if).replace(/^\s*\$\{\{|\}\}\s*$/g, ''), { inputs: {}, steps: {} })) {
  console.log(`run-job: job ${args.job} does not run on a ${args.event} event (if: ${job.if}); try --event`);
  process.exit(0);
}
const jobEnv = stringEnv({ ...workflow.env, ...job.env }, { inputs: {}, steps: {} });
const failed = runSteps(job.steps, { steps: {}, env: jobEnv, shell: job.defaults?.run?.shell ?? workflow.defaults?.run?.shell }, `job ${args.job}`);

console.log(`\nrun-job: ${args.job} (${Object.entries(args.matrix).map(([k, v]) => `${k}=${v}`).join(' ') || 'no matrix'}) in ${workspace}, owner ${root ? 'uid 65534' : 'this user'}`);
for (const s of report.steps) console.log(`  ${s.title}: ${s.result}`);
let missing = 0;
for (const u of report.uploads) {
  console.log(`  artifact ${u.artifact}: ${u.path}: ${u.found ? `present (${u.found})` : 'MISSING'}`);
  if (!u.found) missing++;
}
for (const c of report.caches) {
  const present = existsSync(join(workspace, c));
  console.log(`  cache path ${c}: ${present ? 'present' : 'MISSING'}`);
  if (!present) missing++;
}
const envCcache = readEnvFile().CCACHE_DIR;
if (envCcache) console.log(`  CCACHE_DIR=${envCcache} (${envCcache.startsWith(workspace) ? 'inside the workspace' : 'OUTSIDE the workspace'})`);
if (existsSync(host)) {
  console.log(`  a step wrote to the host's path ${host}`);
  missing++;
}
console.log(`run-job: ${failed ? 'a step FAILED' : 'every step that ran passed'}; ${missing} missing path(s)`);
process.exit(failed || missing ? 1 : 0);
