// A load generator that sends each request body of a file exactly once (one JSON body per line),
// POSTed to URL over CONNECTIONS keep-alive connections, and prints one JSON line: requests, elapsed
// seconds, p50 and p99 latency (ms), non-2xx answers and errors. For a route whose every request
// must differ (a settled paid turn spends its Note once), where wrk or a timed autocannon run would
// send the same body twice. Run on its own core by tests/bench/run.mjs.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

const [url, bodiesFile, connections] = process.argv.slice(2);
const bodies = readFileSync(bodiesFile, 'utf8').split('\n').filter(Boolean);
let next = 0;
// Timed from the first request sent to the last answer: autocannon's own duration runs to its next
// one-second sample, which would count up to a second of idling against a short run.
let startedAt;
let lastAnswerAt;
const result = await autocannon({
  url,
  connections: Number(connections),
  amount: bodies.length,
  requests: [
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        startedAt ??= performance.now();
        return { ...request, body: bodies[next++ % bodies.length] };
      },
      onResponse: () => {
        lastAnswerAt = performance.now();
      },
    },
  ],
});
const elapsedSeconds = (lastAnswerAt - startedAt) / 1000;
console.log(
  JSON.stringify({
    requests: result.requests.total,
    elapsedSeconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  }),
);
