// A stand-in for the part of GitHub's REST API that perfgate-post-comment uses, for its tests (Node 20, builtins only).
// Serves one repository on 127.0.0.1 at an ephemeral port, answering as GitHub does:
//   GET   /repos/O/N/pulls/:n                         {"number", "head": {"sha"}}
//   GET   /repos/O/N/issues/:n/comments?per_page&page  an array, per_page 30 by default and at most 100, with a Link
//                                                      header in GitHub's format (rel="prev", "next", "last", "first"
//                                                      as they apply; absolute URLs of the /repositories/ID/ form)
//   POST  /repos/O/N/issues/:n/comments               201 and the new comment
//   PATCH /repos/O/N/issues/comments/:id               200 and the edited comment; 404 for an unknown id
// (every /repos/O/N/ path is also served as /repositories/ID/). Every request needs "Authorization: Bearer TOKEN",
// or gets 401; another repository gets 404; a body that is not {"body": string} or is over 65536 characters gets 422.
//
// Options: --port-file FILE (required: the port, written once listening)  --log FILE (one JSON line per request:
//   {method, path, query, body, headers})  --state FILE (the comments array, rewritten after every change)
//   --repo O/N (default octo/widgets)  --token T (default test-token)  --login LOGIN (author of new comments, default
//   github-actions[bot])  --head-sha SHA  --seed-comments FILE (a JSON array of {body, login, issue?}, created first
//   with ascending ids; issue defaults to --seed-issue, default 1)
//   --fail STATUS [--fail-method METHOD] [--fail-count K] [--fail-after-change]: answer STATUS to every request of
//   METHOD (all methods when omitted), or only the first K of them; with --fail-after-change a POST or PATCH is
//   carried out before the failure is answered (a gateway that lost the answer); --fail-message TEXT is the
//   "message" of a 4xx failure (default "Resource not accessible by integration"); any other STATUS answers an HTML
//   page, so --fail 200 stands for a proxy that answers in GitHub's place. --link-base URL puts URL in place of the
//   stand-in's own address in Link headers (a server that would send the client elsewhere).
// Exits on SIGTERM or SIGINT.
import { createServer } from 'node:http';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: {
    'port-file': { type: 'string' },
    log: { type: 'string' },
    state: { type: 'string' },
    repo: { type: 'string', default: 'octo/widgets' },
    token: { type: 'string', default: 'test-token' },
    login: { type: 'string', default: 'github-actions[bot]' },
    'head-sha': { type: 'string', default: '0123456789abcdef0123456789abcdef01234567' },
    'seed-comments': { type: 'string' },
    'seed-issue': { type: 'string', default: '1' },
    fail: { type: 'string' },
    'fail-method': { type: 'string' },
    'fail-count': { type: 'string' },
    'fail-after-change': { type: 'boolean', default: false },
    'fail-message': { type: 'string', default: 'Resource not accessible by integration' },
    'link-base': { type: 'string' },
  },
  strict: true,
});
if (!options['port-file']) throw new Error('github_standin: --port-file is required');

const repositoryId = 4242;
const comments = [];
let nextId = 1000001;
let failuresLeft = options['fail-count'] === undefined ? Infinity : Number(options['fail-count']);
let base = '';

function writeAtomically(file, text) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}
function saveState() {
  if (options.state) writeAtomically(options.state, JSON.stringify(comments, null, 1) + '\n');
}
function addComment(issue, body, login) {
  const id = nextId++;
  const now = new Date().toISOString();
  const comment = {
    id, node_id: `IC_${id}`, url: `${base}/repos/${options.repo}/issues/comments/${id}`,
    html_url: `https://github.com/${options.repo}/pull/${issue}#issuecomment-${id}`,
    issue_url: `${base}/repos/${options.repo}/issues/${issue}`, body,
    user: { login, type: login.endsWith('[bot]') ? 'Bot' : 'User' }, created_at: now, updated_at: now,
  };
  Object.defineProperty(comment, 'issue', { value: issue, enumerable: false });
  comments.push(comment);
  return comment;
}

if (options['seed-comments']) {
  for (const seed of JSON.parse(readFileSync(options['seed-comments'], 'utf8'))) {
    addComment(Number(seed.issue ?? options['seed-issue']), seed.body, seed.login);
  }
}

function send(response, status, value, headers = {}) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  response.writeHead(status, {
    'Content-Type': typeof value === 'string' ? 'text/html' : 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text), ...headers,
  });
  response.end(text);
}

function listComments(response, issue, url) {
  const all = comments.filter((c) => c.issue === issue);
  const perPage = Math.min(100, Math.max(1, Number.parseInt(url.searchParams.get('per_page') ?? '30', 10) || 30));
  const page = Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1);
  const last = Math.max(1, Math.ceil(all.length / perPage));
  const link = (p, rel) => `<${options['link-base'] ?? base}/repositories/${repositoryId}/issues/${issue}/comments?per_page=${perPage}&page=${p}>; rel="${rel}"`;
  const links = [];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  send(response, 200, all.slice((page - 1) * perPage, page * perPage), links.length ? { Link: links.join(', ') } : {});
}

function route(request, response, url, body) {
  // The state file is rewritten before the answer goes out, so a client that has its answer sees the change there.
  const bad = (status, message) => send(response, status, { message, documentation_url: 'https://docs.github.com/rest' });
  if (request.headers.authorization !== `Bearer ${options.token}`) return bad(401, 'Bad credentials');
  if (!request.headers['user-agent']) return bad(403, 'Request forbidden by administrative rules.');
  const match = url.pathname.match(/^\/(?:repos\/([^/]+\/[^/]+)|repositories\/(\d+))\/(.*)$/);
  if (!match || (match[1] !== undefined ? match[1] !== options.repo : Number(match[2]) !== repositoryId)) {
    return bad(404, 'Not Found');
  }
  const rest = match[3];
  const method = request.method;
  let m;
  if (method === 'GET' && (m = rest.match(/^pulls\/(\d+)$/))) {
    return send(response, 200, { number: Number(m[1]), state: 'open', head: { sha: options['head-sha'], ref: 'topic' } });
  }
  if (method === 'GET' && (m = rest.match(/^issues\/(\d+)\/comments$/))) {
    return listComments(response, Number(m[1]), url);
  }
  const edit = (method === 'POST' && (m = rest.match(/^issues\/(\d+)\/comments$/))) ? 'create'
    : (method === 'PATCH' && (m = rest.match(/^issues\/comments\/(\d+)$/))) ? 'update' : null;
  if (!edit) return bad(404, 'Not Found');
  let parsed;
  try { parsed = JSON.parse(body); } catch { return bad(400, 'Problems parsing JSON'); }
  if (typeof parsed?.body !== 'string') return bad(422, 'Invalid request.\n\n"body" wasn\'t supplied.');
  if ([...parsed.body].length > 65536) return bad(422, 'Validation Failed: body is too long (maximum is 65536 characters)');
  if (edit === 'create') {
    const created = addComment(Number(m[1]), parsed.body, options.login);
    saveState();
    send(response, 201, created);
    return;
  }
  const comment = comments.find((c) => c.id === Number(m[1]));
  if (!comment) return bad(404, 'Not Found');
  comment.body = parsed.body;
  comment.updated_at = new Date().toISOString();
  saveState();
  send(response, 200, comment);
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url, base);
    let logged = text;
    try { logged = text ? JSON.parse(text) : null; } catch { /* logged as text */ }
    const headers = {};
    for (const name of ['accept', 'x-github-api-version', 'user-agent', 'content-type']) headers[name] = request.headers[name] ?? null;
    if (options.log) {
      appendFileSync(options.log, JSON.stringify({
        method: request.method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: logged, headers,
      }) + '\n');
    }
    const failing = options.fail !== undefined && failuresLeft > 0 &&
      (options['fail-method'] === undefined || options['fail-method'] === request.method);
    if (failing) failuresLeft--;
    if (failing && !options['fail-after-change']) {
      const status = Number(options.fail);
      if (status >= 500 || status < 400) send(response, status, `<html><body><h1>${status}</h1>stand-in failure</body></html>`);
      else send(response, status, { message: options['fail-message'] });
      return;
    }
    if (failing) {
      // Carry the request out, then lose the answer.
      const discard = { writeHead() {}, end() {} };
      route(request, discard, url, text);
      send(response, Number(options.fail), `<html><body>stand-in failure after the change</body></html>`);
      return;
    }
    route(request, response, url, text);
  });
});

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => { saveState(); process.exit(0); });
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  base = `http://127.0.0.1:${port}`;
  for (const comment of comments) {
    comment.url = `${base}/repos/${options.repo}/issues/comments/${comment.id}`;
    comment.issue_url = `${base}/repos/${options.repo}/issues/${comment.issue}`;
  }
  saveState();
  writeAtomically(options['port-file'], `${port}\n`);
});
