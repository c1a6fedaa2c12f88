// A server that answers perfgate-post-comment as no honest GitHub would, one way per run (Node 20, builtins only):
//   glob     comments answered [] with a next-page link whose URL holds a curl glob, [1-100000]
//   endless  comments answered 200 with a body that trickles on without end
//   huge     comments answered with 40 MiB at once
//   bigid    comments answered with the marked comment under an id above 2^53
// Usage: node hostile_github.mjs MODE PORT_FILE LOG_FILE   (one line per request in LOG_FILE: METHOD URL)
import { createServer } from 'node:http';
import { appendFileSync, writeFileSync } from 'node:fs';

const [mode, portFile, logFile] = process.argv.slice(2);
const server = createServer((request, response) => {
  appendFileSync(logFile, `${request.method} ${request.url}\n`);
  const base = `http://127.0.0.1:${server.address().port}`;
  if (request.method !== 'GET') {
    response.writeHead(201, { 'Content-Type': 'application/json' });
    response.end('{"id": 7}');
    return;
  }
  if (mode === 'glob') {
    const first = !request.url.includes('[');
    response.writeHead(200, first ? { Link: `<${base}/repos/o/n/issues/1/comments?page=[1-100000]>; rel="next"` } : {});
    response.end('[]');
  } else if (mode === 'endless') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.write('[');
    setInterval(() => response.write(' '), 200);
  } else if (mode === 'huge') {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('[' + ' '.repeat(40 * 1024 * 1024) + ']');
  } else {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end('[{"id": 9007199254740993, "body": "x <!-- perfgate-comment:perfgate -->", "user": {"login": "github-actions[bot]"}}]');
  }
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
