// The yardstick: a bare node:http server doing the least equivalent work (a static body from
// memory with its Content-Length; for a POST, parse the JSON body and answer a small JSON object).
// Started as its own process so it meets the same conditions as the real server.
import http from 'node:http';

const staticBody = Buffer.from(process.env.BARE_STATIC_BODY ?? '{"ok":true}');
const answer = Buffer.from('{"ok":true}');

const server = http.createServer((req, res) => {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': staticBody.length });
    return res.end(staticBody);
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    JSON.parse(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.length });
    res.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(JSON.stringify({ msg: 'listening', url: `http://127.0.0.1:${port}` }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
